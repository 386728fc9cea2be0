//! The median and extremes of repeated measurements: how the paired runners summarise rounds.

/// The median (the mean of the middle two for an even count), the least and the greatest of
/// `values`; NaN for all three when there are none.
pub fn spread(mut values: Vec<f64>) -> (f64, f64, f64) {
    let n = values.len();
    if n == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    values.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    (median, values[0], values[n - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(spread(vec![3.0, 1.0, 2.0]), (2.0, 1.0, 3.0));
        assert_eq!(spread(vec![4.0, 1.0, 2.0, 3.0]), (2.5, 1.0, 4.0));
        assert!(spread(Vec::new()).0.is_nan());
    }
}
