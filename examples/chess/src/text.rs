//! Reading values out of UCI lines: numbers in a range, booleans, and echoes of user input cut
//! to a printable length.

/// Echoes of user input are cut to 80 characters (a garbage line may be megabytes).
pub fn truncate(text: &str) -> &str {
    match text.char_indices().nth(80) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// `value` as a number from `min` to `max`, or an error naming `what`.
pub fn parse_in_range<T>(value: &str, min: T, max: T, what: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match value.trim().parse::<T>() {
        Ok(v) if min <= v && v <= max => Ok(v),
        _ => Err(format!(
            "{what} must be a number from {min} to {max}, not '{}'",
            truncate(value)
        )),
    }
}

/// `true` or `false` (any case), or an error naming `what`.
pub fn parse_bool(value: &str, what: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "{what} must be true or false, not '{}'",
            truncate(value)
        )),
    }
}

/// A `go` number: any integer, negative ones read as 0 (GUIs send negative clocks once a
/// side has overstepped) and ones beyond `u64::MAX` as `u64::MAX`. `None` if not an integer.
pub fn parse_clock_value(text: &str) -> Option<u64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if text.starts_with('-') {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}
