//! The rating-history chart: rating over time with its deviation band, axis labels and
//! dates, drawn with tiny-skia (the texts in the embedded DejaVu Sans from glyphs rasterised
//! once, [`super::text`]), as a PNG.
//!
//! [`rating_chart`] is a pure function of its input: the same chart gives the same bytes.
//! Sized for a phone: 960×540 pixels (Discord shows it full width), 18–22 px text.

use resvg::tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

use super::gif::drawable_name;
use super::raster::RgbImage;
use super::text::{Anchor, TextLine, Weight};

/// The segments of a rating line stroked as one path (see [`rating_chart`]).
const LINE_PIECE: usize = 64;

/// The chart's width in pixels.
pub const CHART_WIDTH: u32 = 960;
/// The chart's height in pixels.
pub const CHART_HEIGHT: u32 = 540;

/// One point: a player's rating after a rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartPoint {
    /// When (Unix ms).
    pub at_ms: i64,
    /// The rating.
    pub rating: f64,
    /// Its deviation (the band is rating ± deviation).
    pub deviation: f64,
}

/// One line of the chart (a speed), oldest point first.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSeries {
    /// Its name in the legend.
    pub label: String,
    /// Its points, oldest first.
    pub points: Vec<ChartPoint>,
}

/// What to draw, every text already in the reader's language.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// The title (the player's name, say).
    pub title: String,
    /// The vertical axis's name.
    pub y_label: String,
    /// Shown when no series has a point.
    pub empty: String,
    /// The lines, at most [`PALETTE`]'s length (more are not drawn).
    pub series: Vec<ChartSeries>,
}

impl Chart {
    /// The chart of a player's stats, its texts in `lang`: one series per speed, then the
    /// puzzle rating's.
    pub fn of_stats(stats: &crate::game::ratings::StatsView, lang: cajitas_rules::Lang) -> Chart {
        Chart {
            title: stats.user.name.clone(),
            y_label: crate::tr!(lang, "chart-rating"),
            empty: crate::tr!(lang, "chart-no-games"),
            series: stats
                .speeds
                .iter()
                .map(|s| series(lang, s.speed.as_str(), &s.history))
                .chain(
                    (!stats.puzzle_history.is_empty())
                        .then(|| series(lang, "puzzles", &stats.puzzle_history)),
                )
                .collect(),
        }
    }
}

/// One line of the chart: a rating history, named by the `speed` message's `word`.
fn series(
    lang: cajitas_rules::Lang,
    word: &str,
    history: &[crate::game::ratings::ChartPoint],
) -> ChartSeries {
    ChartSeries {
        label: crate::tr!(lang, "speed", speed = word.to_owned()),
        points: history
            .iter()
            .map(|p| ChartPoint {
                at_ms: p.at,
                rating: p.rating,
                deviation: p.deviation,
            })
            .collect(),
    }
}

/// Line colours, one per series (lichess-like blue and orange for the game speeds, green for
/// the puzzle rating).
pub const PALETTE: [[u8; 3]; 3] = [[0x1f, 0x6f, 0xc5], [0xd8, 0x6a, 0x0e], [0x2e, 0x8b, 0x57]];

const BG: [u8; 3] = [0xff, 0xff, 0xff];
const GRID: [u8; 3] = [0xe2, 0xe2, 0xe2];
const AXIS: [u8; 3] = [0x55, 0x55, 0x55];
const TEXT: [u8; 3] = [0x22, 0x22, 0x22];

// The plot area inside the picture.
const LEFT: f32 = 84.0;
const RIGHT: f32 = 24.0;
const TOP: f32 = 74.0;
const BOTTOM: f32 = 62.0;

/// The band may widen the vertical range by at most this much beyond the ratings.
const BAND_MARGIN: f64 = 150.0;

fn paint(c: [u8; 3], alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(c[0], c[1], c[2], alpha));
    p.anti_alias = true;
    p
}

/// "YYYY-MM-DD" (UTC) of a Unix time in ms.
pub fn iso_date(unix_ms: i64) -> String {
    crate::game::calendar::CivilDate::of_unix_ms(unix_ms).to_string()
}

/// A round step giving about `n` ticks over `span`.
fn tick_step(span: f64, n: f64) -> f64 {
    let raw = (span / n).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// Draws `chart` as a PNG of [`CHART_WIDTH`]×[`CHART_HEIGHT`] pixels.
pub fn rating_chart(chart: &Chart) -> Vec<u8> {
    let (w, h) = (CHART_WIDTH as f32, CHART_HEIGHT as f32);
    let mut pm = Pixmap::new(CHART_WIDTH, CHART_HEIGHT).expect("a non-empty chart size");
    pm.fill(Color::from_rgba8(BG[0], BG[1], BG[2], 255));
    let mut texts = Texts::default();
    let text =
        |texts: &mut Texts, x: f32, y: f32, anchor: Anchor, size: u32, bold: bool, t: &str| {
            let weight = if bold { Weight::Bold } else { Weight::Regular };
            let line = TextLine::new(&drawable_name(t), weight, size as f32, x, y, anchor);
            texts.lines.push(line);
            texts.lines.last().map_or(0.0, TextLine::advance)
        };
    text(
        &mut texts,
        LEFT,
        34.0,
        Anchor::Start,
        24,
        true,
        &chart.title,
    );

    let series: Vec<&ChartSeries> = chart
        .series
        .iter()
        .filter(|s| !s.points.is_empty())
        .take(PALETTE.len())
        .collect();
    let (x0, x1, y0, y1) = (LEFT, w - RIGHT, TOP, h - BOTTOM);
    let frame = PathBuilder::from_rect(Rect::from_ltrb(x0, y0, x1, y1).expect("plot area"));
    if series.is_empty() {
        pm.stroke_path(
            &frame,
            &paint(GRID, 255),
            &Stroke::default(),
            Transform::identity(),
            None,
        );
        text(
            &mut texts,
            (x0 + x1) / 2.0,
            (y0 + y1) / 2.0,
            Anchor::Middle,
            22,
            false,
            &chart.empty,
        );
        return finish(pm, &texts);
    }

    // Ranges: every point's time; the ratings, widened by their bands up to BAND_MARGIN.
    let all = || series.iter().flat_map(|s| s.points.iter());
    let t_min = all().map(|p| p.at_ms).min().unwrap_or(0);
    let mut t_max = all().map(|p| p.at_ms).max().unwrap_or(0);
    if t_max <= t_min {
        t_max = t_min + 86_400_000;
    }
    let r_min = all().map(|p| p.rating).fold(f64::INFINITY, f64::min);
    let r_max = all().map(|p| p.rating).fold(f64::NEG_INFINITY, f64::max);
    let lo = all()
        .map(|p| p.rating - p.deviation)
        .fold(f64::INFINITY, f64::min)
        .max(r_min - BAND_MARGIN);
    let hi = all()
        .map(|p| p.rating + p.deviation)
        .fold(f64::NEG_INFINITY, f64::max)
        .min(r_max + BAND_MARGIN);
    let step = tick_step((hi - lo).max(50.0), 5.0);
    let v_min = (lo / step).floor() * step;
    let v_max = ((hi / step).ceil() * step).max(v_min + step);
    let sx = |t: i64| x0 + ((t - t_min) as f64 / (t_max - t_min) as f64) as f32 * (x1 - x0);
    let sy = |v: f64| y1 - ((v - v_min) / (v_max - v_min)) as f32 * (y1 - y0);

    // Grid and rating labels.
    let grid = Stroke {
        width: 1.0,
        ..Stroke::default()
    };
    let mut v = v_min;
    let mut pb = PathBuilder::new();
    while v <= v_max + step / 2.0 {
        let y = sy(v).round() + 0.5;
        pb.move_to(x0, y);
        pb.line_to(x1, y);
        text(
            &mut texts,
            x0 - 10.0,
            y + 7.0,
            Anchor::End,
            19,
            false,
            &format!("{v:.0}"),
        );
        v += step;
    }
    // Dates: up to five, evenly spread, never two the same.
    let mut last = String::new();
    for i in 0..5 {
        let t = t_min + (t_max - t_min) * i / 4;
        let d = iso_date(t);
        if d == last {
            continue;
        }
        let x = sx(t).round() + 0.5;
        pb.move_to(x, y0);
        pb.line_to(x, y1);
        let anchor = match i {
            0 => Anchor::Start,
            4 => Anchor::End,
            _ => Anchor::Middle,
        };
        text(&mut texts, x, y1 + 30.0, anchor, 19, false, &d);
        last = d;
    }
    if let Some(p) = pb.finish() {
        pm.stroke_path(&p, &paint(GRID, 255), &grid, Transform::identity(), None);
    }
    // The vertical axis's name, turned to read upwards, its baseline on x = 22.
    texts.turned = Some((
        TextLine::new(
            &drawable_name(&chart.y_label),
            Weight::Regular,
            19.0,
            0.0,
            0.0,
            Anchor::Middle,
        ),
        22,
        ((y0 + y1) / 2.0).round() as i32,
    ));

    // Bands first, then lines, so no band hides a line.
    let clip = Rect::from_ltrb(x0, y0, x1, y1).expect("plot area");
    let clamp_y = |y: f32| y.clamp(y0, y1);
    for (s, colour) in series.iter().zip(PALETTE) {
        // All its points at one time (one game): the band is a bar around the dot, as wide
        // as it. (As an outline it would be a vertical line, which tiny-skia cannot fill: it
        // logged a warning for every chart of one game.)
        let x_first = sx(s.points[0].at_ms);
        if s.points.iter().all(|p| sx(p.at_ms) == x_first) {
            let top = s
                .points
                .iter()
                .map(|p| sy(p.rating + p.deviation))
                .fold(y1, f32::min);
            let bottom = s
                .points
                .iter()
                .map(|p| sy(p.rating - p.deviation))
                .fold(y0, f32::max);
            let bar = Rect::from_ltrb(x_first - 4.0, clamp_y(top), x_first + 4.0, clamp_y(bottom));
            if let Some(bar) = bar.filter(|r| r.height() > 0.0) {
                pm.fill_rect(bar, &paint(colour, 48), Transform::identity(), None);
            }
            continue;
        }
        let top = s
            .points
            .iter()
            .map(|p| (sx(p.at_ms), clamp_y(sy(p.rating + p.deviation))));
        let bottom = s
            .points
            .iter()
            .rev()
            .map(|p| (sx(p.at_ms), clamp_y(sy(p.rating - p.deviation))));
        let mut band = polyline(top.chain(bottom));
        band.close();
        if let Some(path) = band.finish() {
            // Without anti-aliasing: a band at alpha 48 shows no steps at its edges, and
            // its 2,000-edge outline filled without supersampling took the chart from 5.5
            // to 4.5 ms of CPU (`benches/ratings.rs`, chart).
            pm.fill_path(
                &path,
                &{
                    let mut band = paint(colour, 48);
                    band.anti_alias = false;
                    band
                },
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    let line = Stroke {
        width: 3.0,
        line_cap: LineCap::Round,
        // Bevelled: at 3 px a round join looks the same, and 1,000 of them were a fifth of
        // the chart's time (each an arc of curves for the filler to sort and scan).
        line_join: LineJoin::Bevel,
        ..Stroke::default()
    };
    for (s, colour) in series.iter().zip(PALETTE) {
        if s.points.len() == 1 {
            let p = s.points[0];
            if let Some(dot) = PathBuilder::from_circle(sx(p.at_ms), sy(p.rating), 4.0) {
                pm.fill_path(
                    &dot,
                    &paint(colour, 255),
                    FillRule::Winding,
                    Transform::identity(),
                    None,
                );
            }
            continue;
        }
        // Stroked in pieces of LINE_PIECE segments, each starting where the last ended (its
        // round caps meet as a round join would): the filler sorts each outline's edges, and
        // sorting a 1,000-point line's ~4,000 at once was a tenth of the chart's time.
        let mut from = 0;
        while from + 1 < s.points.len() {
            let to = (from + LINE_PIECE).min(s.points.len() - 1);
            let pb = polyline(
                s.points[from..=to]
                    .iter()
                    .map(|p| (sx(p.at_ms), sy(p.rating))),
            );
            from = to;
            if let Some(path) = pb.finish() {
                pm.stroke_path(
                    &path,
                    &paint(colour, 255),
                    &line,
                    Transform::identity(),
                    None,
                );
            }
        }
    }
    let _ = clip;
    pm.stroke_path(
        &frame,
        &paint(AXIS, 255),
        &Stroke::default(),
        Transform::identity(),
        None,
    );
    // The legend, top right: a swatch and the series' name and last rating.
    let mut x = x1;
    for (s, colour) in series.iter().zip(PALETTE).rev() {
        let last = s.points.last().map(|p| p.rating.round()).unwrap_or(0.0);
        let label = format!("{} {last:.0}", s.label);
        let width = text(&mut texts, x, 36.0, Anchor::End, 20, false, &label);
        if let Some(r) = Rect::from_xywh(x - width - 26.0, 22.0, 18.0, 18.0) {
            pm.fill_rect(r, &paint(colour, 255), Transform::identity(), None);
        }
        x -= width + 48.0;
    }
    finish(pm, &texts)
}

/// A path through `points` in order: a move to the first, a line to each one after.
fn polyline(points: impl IntoIterator<Item = (f32, f32)>) -> PathBuilder {
    let mut pb = PathBuilder::new();
    for (i, (x, y)) in points.into_iter().enumerate() {
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb
}

/// The chart's texts: lines, and the vertical axis's name with the column of its
/// baseline and the row of its middle.
#[derive(Default)]
struct Texts {
    lines: Vec<TextLine>,
    turned: Option<(TextLine, i32, i32)>,
}

/// Draws the texts over `pm` and encodes it.
fn finish(pm: Pixmap, texts: &Texts) -> Vec<u8> {
    // Opaque: the background was filled first.
    let mut img = RgbImage::from_opaque(&pm);
    for line in &texts.lines {
        line.draw(&mut img, TEXT);
    }
    if let Some((line, x, y)) = &texts.turned {
        line.draw_turned(&mut img, TEXT, *x, *y);
    }
    img.encode_png()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> (png::OutputInfo, Vec<u8>) {
        let dec = png::Decoder::new(std::io::Cursor::new(png));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info, buf)
    }

    fn series(n: usize) -> ChartSeries {
        ChartSeries {
            label: "Correspondence".into(),
            points: (0..n)
                .map(|i| ChartPoint {
                    at_ms: 1_800_000_000_000 + i as i64 * 3_600_000,
                    rating: 1500.0 + (i as f64 * 0.3).sin() * 200.0,
                    deviation: 500.0 / (1.0 + i as f64).sqrt(),
                })
                .collect(),
        }
    }

    fn pixel(buf: &[u8], x: u32, y: u32) -> [u8; 3] {
        let i = ((y * CHART_WIDTH + x) * 3) as usize;
        [buf[i], buf[i + 1], buf[i + 2]]
    }

    #[test]
    fn the_chart_decodes_and_draws_the_line_the_band_and_texts() {
        let chart = Chart {
            title: "alice <&> \u{1b}".into(),
            y_label: "Rating".into(),
            empty: "No rated games yet".into(),
            series: vec![series(200)],
        };
        let png = rating_chart(&chart);
        assert_eq!(png, rating_chart(&chart), "deterministic");
        let (info, buf) = decode(&png);
        assert_eq!((info.width, info.height), (CHART_WIDTH, CHART_HEIGHT));
        let count = |f: &dyn Fn([u8; 3]) -> bool| {
            (0..CHART_HEIGHT)
                .flat_map(|y| (0..CHART_WIDTH).map(move |x| (x, y)))
                .filter(|&(x, y)| f(pixel(&buf, x, y)))
                .count()
        };
        // The line in its colour, the band a pale tint of it, dark text.
        let line = count(&|p| p == PALETTE[0]);
        let band = count(&|p| u16::from(p[2]) > u16::from(p[0]) + 20 && p[0] > 150);
        let dark = count(&|p| p[0] < 80 && p[1] < 80 && p[2] < 80);
        assert!(line > 1000, "line pixels {line}");
        assert!(band > 20_000, "band pixels {band}");
        assert!(dark > 2000, "text pixels {dark}");
        // The title's area has text; the bottom right corner is background.
        assert!((LEFT as u32..LEFT as u32 + 150).any(|x| pixel(&buf, x, 28)[0] < 100));
        assert_eq!(pixel(&buf, CHART_WIDTH - 2, CHART_HEIGHT - 2), BG);
    }

    #[test]
    fn an_empty_chart_says_so_and_one_point_is_a_dot() {
        let mut chart = Chart {
            title: "bob".into(),
            y_label: "Rating".into(),
            empty: "No rated games yet".into(),
            series: vec![],
        };
        let (_, empty) = decode(&rating_chart(&chart));
        assert!(!empty.chunks(3).any(|p| p == PALETTE[0]));
        chart.series = vec![series(1)];
        let (_, one) = decode(&rating_chart(&chart));
        assert!(one.chunks(3).filter(|p| *p == PALETTE[0]).count() > 20);
    }

    #[test]
    fn dates_and_steps() {
        assert_eq!(iso_date(0), "1970-01-01");
        assert_eq!(iso_date(951_782_400_000), "2000-02-29");
        assert_eq!(tick_step(1000.0, 5.0), 200.0);
        assert_eq!(tick_step(120.0, 5.0), 25.0);
        assert_eq!(tick_step(50.0, 5.0), 10.0);
    }
}
