//! The figures of a report, as SVG text drawn with plotters: rates with their intervals
//! (outcome shares per reading, one-at-a-time changes, variance shares) and the
//! distribution of game lengths.
//!
//! Charts take plain numbers, already in the units they show, and know nothing of games or
//! commands: the report decides what to draw. What they write depends on nothing but those
//! numbers: coordinates are whole pixels from IEEE arithmetic, text is left to the viewer's
//! `sans-serif` (plotters' SVG backend without its font features measures no glyph and
//! embeds no font), so the same numbers give the same bytes on any machine.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A value with its 95 % interval, in the chart's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// The interval's lower bound.
    pub lo: f64,
    /// Its upper bound.
    pub hi: f64,
}

/// One row of a bar chart: a label and one bar per series (`None`: nothing to draw, and
/// `missing` says why).
#[derive(Debug, Clone)]
pub struct Row {
    /// The row's label, at its left.
    pub label: String,
    /// One bar per series, in the series' order.
    pub bars: Vec<Option<Interval>>,
    /// Written in the row where no bar is drawn.
    pub missing: Option<String>,
}

/// A chart of bars from zero, each with its interval's whisker: rows of one bar per series.
#[derive(Debug, Clone)]
pub struct Bars {
    /// Above the chart.
    pub title: String,
    /// Under the value axis.
    pub axis: String,
    /// The series' names, for the legend (none drawn for a single series).
    pub series: Vec<String>,
    /// The rows, top to bottom.
    pub rows: Vec<Row>,
    /// The value axis, when fixed (rates from 0 to 100 %); otherwise from the values and
    /// their intervals, zero included.
    pub range: Option<(f64, f64)>,
}

/// One row of a length chart: a label and the number of games of each length.
#[derive(Debug, Clone)]
pub struct Lengths<'a> {
    /// The row's label.
    pub label: String,
    /// `counts[v]`: games of length `v`.
    pub counts: &'a [u64],
}

/// Colours that colour-blind readers tell apart (Okabe and Ito), in the series' order.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(153, 153, 153),
    RGBColor(64, 64, 64),
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

const WIDTH: u32 = 760;
const FONT: &str = "sans-serif";
/// Height of one bar, and the space between rows.
const BAR: i32 = 11;
const ROW_GAP: i32 = 9;
const TOP: i32 = 34;
const AXIS: u32 = 44;

/// The room the labels need: about 7 px a character at 12 px, within bounds.
fn label_width<'a>(labels: impl Iterator<Item = &'a str>) -> u32 {
    let chars = labels.map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    (chars * 7 + 14).clamp(60, 320)
}

/// Where the legend's entries go: the width of one entry (its longest name's) and how many
/// fit on a line from `x`.
fn legend_layout(series: &[String], x: i32) -> (i32, usize) {
    let chars = series.iter().map(|s| s.chars().count()).max().unwrap_or(0) as i32;
    let step = chars * 8 + 28;
    (step, ((WIDTH as i32 - x - 10) / step).max(1) as usize)
}

/// The height of the legend (none for a single series).
fn legend_height(series: &[String], x: i32) -> i32 {
    if series.len() <= 1 {
        0
    } else {
        18 * series.len().div_ceil(legend_layout(series, x).1) as i32
    }
}

/// A bar chart as SVG text.
pub fn bars(chart: &Bars) -> String {
    let per_row = BAR * chart.series.len().max(1) as i32 + ROW_GAP;
    let labels = label_width(chart.rows.iter().map(|r| r.label.as_str()));
    let legend = legend_height(&chart.series, labels as i32);
    let height = (TOP + legend) as u32 + per_row as u32 * chart.rows.len() as u32 + AXIS;
    let (lo, hi) = chart.range.unwrap_or_else(|| span(&chart.rows));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        draw_bars(&root, chart, (lo, hi), (labels, per_row, legend))
            .expect("drawing into a string fails not");
        root.present().expect("a string takes the chart");
    }
    svg
}

/// The value axis of rows without a fixed range: zero and every interval, with a margin.
fn span(rows: &[Row]) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    // Only finite values set the axis: an infinite bound would leave it without an end.
    for i in rows.iter().flat_map(|r| r.bars.iter().flatten()) {
        for v in [i.lo, i.value, i.hi].into_iter().filter(|v| v.is_finite()) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let pad = (hi - lo) * 0.04;
    (
        if lo < 0.0 { lo - pad } else { lo },
        if hi > 0.0 { hi + pad } else { hi },
    )
}

type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Draws `chart` on `root`: the value axis from `lo` to `hi`; `labels` pixels for the row
/// labels, `per_row` for each row, `legend` for the legend.
fn draw_bars(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &Bars,
    (lo, hi): (f64, f64),
    (labels, per_row, legend): (u32, i32, i32),
) -> Drawn {
    root.fill(&WHITE)?;
    let rows = chart.rows.len().max(1) as f64;
    root.draw(&Text::new(
        chart.title.clone(),
        (10, 8),
        TextStyle::from((FONT, 19).into_font()).pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    draw_legend(root, &chart.series, labels as i32, TOP - 4)?;
    let body = root.margin(TOP + legend, 0, labels as i32, 24);
    let mut plot = ChartBuilder::on(&body)
        .x_label_area_size(AXIS)
        .build_cartesian_2d(lo..hi, 0.0..rows)?;
    plot.configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .y_labels(0)
        .x_labels(8)
        .x_label_formatter(&|v| tick(*v))
        .x_desc(chart.axis.as_str())
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;
    // The zero line, where bars start.
    if lo < 0.0 && hi > 0.0 {
        plot.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (0.0, rows)],
            BLACK.stroke_width(1),
        )))?;
    }
    let px = |plot: &ChartContext<_, _>, x: f64, y: f64| plot.backend_coord(&(x, y));
    let label_style =
        TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    let note_style = TextStyle::from((FONT, 14).into_font())
        .color(&RGBColor(90, 90, 90))
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in chart.rows.iter().enumerate() {
        // Row r spans [rows − r − 1, rows − r) in chart units: the first row on top.
        let top = rows - r as f64;
        let (_, top_px) = px(&plot, lo, top);
        let centre = top_px + (per_row - ROW_GAP) / 2 + ROW_GAP / 2;
        root.draw(&Text::new(
            row.label.clone(),
            (labels as i32 - 6, centre),
            label_style.clone(),
        ))?;
        if row.bars.iter().all(Option::is_none) {
            if let Some(why) = &row.missing {
                let (x, _) = px(&plot, lo, top);
                root.draw(&Text::new(why.clone(), (x + 6, centre), note_style.clone()))?;
            }
            continue;
        }
        for (s, bar) in row.bars.iter().enumerate() {
            // A value that is not a number has no bar (its bounds are clamped to the axis).
            let Some(bar) = bar.filter(|b| b.value.is_finite()) else {
                continue;
            };
            let bar = Interval {
                value: bar.value,
                lo: if bar.lo.is_nan() { bar.value } else { bar.lo },
                hi: if bar.hi.is_nan() { bar.value } else { bar.hi },
            };
            let y0 = top_px + ROW_GAP / 2 + BAR * s as i32 + 1;
            let y1 = y0 + BAR - 2;
            let (x0, _) = px(&plot, 0.0f64.clamp(lo, hi), top);
            let (x1, _) = px(&plot, bar.value.clamp(lo, hi), top);
            let c = colour(s);
            root.draw(&Rectangle::new(
                [(x0.min(x1), y0), (x0.max(x1).max(x0.min(x1) + 1), y1)],
                c.mix(0.8).filled(),
            ))?;
            let (w0, _) = px(&plot, bar.lo.clamp(lo, hi), top);
            let (w1, _) = px(&plot, bar.hi.clamp(lo, hi), top);
            let mid = (y0 + y1) / 2;
            let whisker = BLACK.stroke_width(1);
            root.draw(&PathElement::new(vec![(w0, mid), (w1, mid)], whisker))?;
            root.draw(&PathElement::new(vec![(w0, y0 + 1), (w0, y1 - 1)], whisker))?;
            root.draw(&PathElement::new(vec![(w1, y0 + 1), (w1, y1 - 1)], whisker))?;
        }
    }
    Ok(())
}

/// The legend: a swatch and a name per series, as many to a line as fit.
fn draw_legend(root: &DrawingArea<SVGBackend, Shift>, series: &[String], x: i32, y: i32) -> Drawn {
    if series.len() <= 1 {
        return Ok(());
    }
    let (step, per_line) = legend_layout(series, x);
    for (i, name) in series.iter().enumerate() {
        let (col, line) = ((i % per_line) as i32, (i / per_line) as i32);
        let (sx, sy) = (x + col * step, y + 18 * line + 6);
        root.draw(&Rectangle::new(
            [(sx, sy), (sx + 12, sy + 10)],
            colour(i).mix(0.8).filled(),
        ))?;
        root.draw(&Text::new(
            name.clone(),
            (sx + 16, sy + 5),
            TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// An axis tick: at most two decimals, trailing zeros dropped (`0.2`, `1`, `-2.5`).
fn tick(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// Rows per length chart at most (more would be unreadable; the report says which are shown).
pub const LENGTH_ROWS: usize = 40;
/// Bins across the length axis.
const BINS: usize = 60;
const STRIP: i32 = 30;

/// The games' lengths, one strip per row: the share of games in each bin of lengths (each
/// strip scaled to its own tallest bin), the median marked. The axis ends at the largest
/// 99th percentile of the rows, so that a few very long games do not flatten the rest; the
/// caller says so in the caption.
pub fn lengths(title: &str, axis: &str, rows: &[Lengths]) -> String {
    let rows = &rows[..rows.len().min(LENGTH_ROWS)];
    let end = rows
        .iter()
        .map(|r| quantile(r.counts, 99))
        .max()
        .unwrap_or(1)
        .max(1);
    // Bins of a whole number of plies, so that each bin holds the same lengths in every strip.
    let width = (end as usize + 1).div_ceil(BINS).max(1);
    let bins = (end as usize + 1).div_ceil(width);
    let top = end.max((bins * width) as u32);
    let height = TOP as u32 + STRIP as u32 * rows.len() as u32 + AXIS + 6;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        draw_lengths(&root, title, axis, rows, width, bins, top)
            .expect("drawing into a string fails not");
        root.present().expect("a string takes the chart");
    }
    svg
}

/// The nearest-rank `p`-th percentile of a histogram.
fn quantile(counts: &[u64], p: u64) -> u32 {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return 0;
    }
    let r = (p * n).div_ceil(100).max(1);
    let mut seen = 0;
    for (v, &c) in counts.iter().enumerate() {
        seen += c;
        if seen >= r {
            return v as u32;
        }
    }
    counts.len().saturating_sub(1) as u32
}

fn draw_lengths(
    root: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    axis: &str,
    rows: &[Lengths],
    width: usize,
    bins: usize,
    end: u32,
) -> Drawn {
    root.fill(&WHITE)?;
    root.draw(&Text::new(
        title.to_owned(),
        (10, 8),
        TextStyle::from((FONT, 19).into_font()).pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    let labels = label_width(rows.iter().map(|r| r.label.as_str()));
    let body = root.margin(TOP, 0, labels as i32, 24);
    let n_rows = rows.len().max(1) as f64;
    let mut plot = ChartBuilder::on(&body)
        .x_label_area_size(AXIS)
        .build_cartesian_2d(0.0..f64::from(end), 0.0..n_rows)?;
    plot.configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .y_labels(0)
        .x_labels(10)
        .x_label_formatter(&|v| tick(*v))
        .x_desc(axis)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;
    let label_style =
        TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    for (r, row) in rows.iter().enumerate() {
        let base = n_rows - r as f64 - 1.0;
        let mut binned = vec![0u64; bins];
        for (v, &c) in row.counts.iter().enumerate() {
            if v / width < bins {
                binned[v / width] += c;
            }
        }
        let tallest = binned.iter().copied().max().unwrap_or(0).max(1) as f64;
        // The strip's outline: a step per bin, from the baseline and back to it.
        let mut outline = vec![(0.0, base)];
        for (b, &c) in binned.iter().enumerate() {
            let y = base + 0.85 * c as f64 / tallest;
            outline.push(((b * width) as f64, y));
            outline.push((((b + 1) * width) as f64, y));
        }
        outline.push(((bins * width) as f64, base));
        let c = colour(r);
        plot.draw_series(std::iter::once(Polygon::new(
            outline.clone(),
            c.mix(0.35).filled(),
        )))?;
        plot.draw_series(std::iter::once(PathElement::new(
            outline,
            c.stroke_width(1),
        )))?;
        let median = f64::from(quantile(row.counts, 50));
        plot.draw_series(std::iter::once(PathElement::new(
            vec![(median, base), (median, base + 0.9)],
            BLACK.stroke_width(2),
        )))?;
        let (_, y) = plot.backend_coord(&(0.0, base + 0.45));
        root.draw(&Text::new(
            row.label.clone(),
            (labels as i32 - 6, y),
            label_style.clone(),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates() -> Bars {
        Bars {
            title: "Outcomes & intervals".to_owned(),
            axis: "share of games (%)".to_owned(),
            series: vec!["first mover wins".to_owned(), "draw".to_owned()],
            rows: vec![
                Row {
                    label: "davies".to_owned(),
                    bars: vec![
                        Some(Interval {
                            value: 51.0,
                            lo: 50.0,
                            hi: 52.0,
                        }),
                        None,
                    ],
                    missing: None,
                },
                Row {
                    label: "ludii <1.0.8>".to_owned(),
                    bars: vec![None, None],
                    missing: Some("no game played".to_owned()),
                },
            ],
            range: Some((0.0, 100.0)),
        }
    }

    #[test]
    fn a_bar_chart_is_svg_with_its_labels_escaped() {
        let svg = bars(&rates());
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("Outcomes &amp; intervals"));
        assert!(svg.contains("ludii &lt;1.0.8&gt;"));
        assert!(svg.contains("no game played"));
        // No font is embedded or fetched: text names a generic family.
        assert!(!svg.contains("@font-face") && !svg.contains("href"));
        assert_eq!(svg, bars(&rates()), "the same numbers, the same bytes");
    }

    #[test]
    fn values_that_are_not_finite_draw_no_bar_and_keep_the_axis() {
        let mut chart = rates();
        chart.range = None;
        chart.rows[0].bars[1] = Some(Interval {
            value: f64::INFINITY,
            lo: f64::NEG_INFINITY,
            hi: f64::NAN,
        });
        let (lo, hi) = span(&chart.rows);
        assert!(lo.is_finite() && hi.is_finite(), "{lo} {hi}");
        assert!(bars(&chart).contains("</svg>"));
    }

    #[test]
    fn changes_either_side_of_zero_get_a_zero_line_and_room() {
        let (lo, hi) = span(&[Row {
            label: "x".to_owned(),
            bars: vec![Some(Interval {
                value: -3.0,
                lo: -5.0,
                hi: 1.0,
            })],
            missing: None,
        }]);
        assert!(lo < -5.0 && hi > 1.0, "{lo} {hi}");
    }

    #[test]
    fn lengths_bin_the_same_plies_in_every_strip() {
        let a = [0, 0, 5, 10, 5];
        let b = [0, 0, 0, 0, 0, 0, 1];
        let svg = lengths(
            "Lengths",
            "plies",
            &[
                Lengths {
                    label: "a".to_owned(),
                    counts: &a,
                },
                Lengths {
                    label: "b".to_owned(),
                    counts: &b,
                },
            ],
        );
        assert!(svg.contains("<polygon") || svg.contains("<path"), "{svg}");
        assert_eq!(quantile(&a, 50), 3);
        assert_eq!(quantile(&b, 99), 6);
        assert_eq!(quantile(&[], 50), 0);
    }

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(1.0), "1");
        assert_eq!(tick(0.2), "0.2");
        assert_eq!(tick(-2.5), "-2.5");
        assert_eq!(tick(-0.0001), "0");
        assert_eq!(tick(0.375), "0.38");
    }
}
