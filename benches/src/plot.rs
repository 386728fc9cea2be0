//! The plot: ns/op against table size, one line per implementation, as SVG.

use crate::report::{size_name, Family, Results};
use plotters::prelude::*;
use std::path::Path;

/// Writes `path`: for `workload` at `threads`, ns/op per thread against table size (both axes
/// logarithmic), one line per subject, with the bare-read and pointer-chase lines under them.
pub fn ns_per_op(
    results: &Results,
    workload: &str,
    threads: usize,
    path: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut add = |subject: String, workload: &str| {
        let points: Vec<(f64, f64)> = results
            .rows
            .iter()
            .filter(|r| {
                r.subject == subject && r.workload == workload && r.outcome.threads == threads
            })
            .map(|r| (r.bytes as f64 / (1 << 20) as f64, r.outcome.ns_per_op()))
            .collect();
        if !points.is_empty() {
            series.push((subject, points));
        }
    };
    // The limits and searchcache's main variants; the 4 KiB-page and prefetched variants of
    // the limits are in the tables (nine more lines would hide the rest).
    for subject in ["chase", "raw read", "bare read", "bare read pf"] {
        let w = if subject.starts_with("chase") {
            "chase"
        } else {
            "read"
        };
        add(subject.to_string(), w);
    }
    for subject in ["searchcache", "searchcache pf", "searchcache 4K"] {
        add(subject.to_string(), workload);
    }
    for subject in results.subjects(Family::Peer) {
        add(subject, workload);
    }
    let all = || series.iter().flat_map(|(_, p)| p.iter());
    let (x0, x1) = all().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = all().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    if series.is_empty() {
        return Err("nothing to plot".into());
    }
    let root = SVGBackend::new(path, (1000, 700)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{workload}, {threads} thread(s): ns per operation per thread"),
            ("sans-serif", 22),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(
            ((x0 * 0.8)..(x1 * 1.25)).log_scale(),
            ((y0 * 0.8).max(0.1)..(y1 * 1.25)).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("table size")
        .y_desc("ns/op")
        .x_label_formatter(&|mib| size_name((*mib * (1 << 20) as f64).round() as usize))
        .draw()?;
    let mut peer_colors = (0..).map(|i| Palette99::pick(i + 2).to_rgba());
    for (subject, points) in &series {
        let (color, width) = match subject.as_str() {
            "searchcache" => (BLACK.to_rgba(), 3),
            "searchcache pf" => (RED.to_rgba(), 3),
            "searchcache 4K" => (RGBColor(150, 0, 150).to_rgba(), 3),
            "chase" => (RGBColor(160, 160, 160).to_rgba(), 2),
            "raw read" => (RGBColor(90, 90, 90).to_rgba(), 2),
            "bare read" => (RGBColor(60, 60, 220).to_rgba(), 2),
            "bare read pf" => (RGBColor(0, 170, 220).to_rgba(), 2),
            _ => (peer_colors.next().unwrap_or(BLACK.to_rgba()), 1),
        };
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(width),
            ))?
            .label(subject.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3))
            });
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
