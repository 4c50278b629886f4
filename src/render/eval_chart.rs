//! The evaluation chart of an analysed game: a pure function from the evaluations (in
//! pawns, White's point of view, one per position) to a PNG. White's advantage is the
//! light area above the middle line, Black's the dark area below; the scale is ±`clamp`
//! pawns (a mate is drawn at the clamp). Plies where a move was judged are marked.

use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use super::raster::RgbImage;

/// The chart's size and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartOptions {
    /// Width in pixels (100–2000).
    pub width: u32,
    /// Height in pixels (60–1000).
    pub height: u32,
    /// The evaluation shown at the top and bottom edges, in pawns.
    pub clamp: f32,
}

impl Default for ChartOptions {
    fn default() -> Self {
        ChartOptions {
            width: 800,
            height: 240,
            clamp: 10.0,
        }
    }
}

/// A marked ply: its index in the evaluations and how bad the move to it was (1 an
/// inaccuracy, 2 a mistake, 3 a blunder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// The position's index (the position after the judged move).
    pub index: usize,
    /// 1, 2 or 3.
    pub severity: u8,
}

fn paint(r: u8, g: u8, b: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(r, g, b, 255));
    p.anti_alias = true;
    p
}

/// Draws the chart of `pawns` (White's point of view; values past the clamp are clamped,
/// NaN counts as 0) with `marks`, as PNG bytes.
pub fn eval_chart(pawns: &[f32], marks: &[Mark], options: ChartOptions) -> Vec<u8> {
    let w = options.width.clamp(100, 2000);
    let h = options.height.clamp(60, 1000);
    let clamp = if options.clamp.is_finite() && options.clamp > 0.0 {
        options.clamp
    } else {
        10.0
    };
    let mut pm = Pixmap::new(w, h).expect("a chart of a valid size");
    pm.fill(Color::from_rgba8(64, 64, 64, 255));
    let (wf, hf) = (w as f32, h as f32);
    let mid = hf / 2.0;
    let y_of = |v: f32| {
        let v = if v.is_nan() {
            0.0
        } else {
            v.clamp(-clamp, clamp)
        };
        mid - v / clamp * (mid - 1.0)
    };
    let n = pawns.len();
    let x_of = |i: usize| {
        if n <= 1 {
            0.0
        } else {
            i as f32 * (wf - 1.0) / (n - 1) as f32
        }
    };
    if n >= 1 {
        // White's area: from the curve down to the bottom, drawn light over the dark ground.
        let mut pb = PathBuilder::new();
        pb.move_to(0.0, hf);
        for (i, &v) in pawns.iter().enumerate() {
            pb.line_to(x_of(i), y_of(v));
        }
        if n == 1 {
            pb.line_to(wf, y_of(pawns[0]));
        }
        pb.line_to(wf, hf);
        pb.close();
        if let Some(path) = pb.finish() {
            pm.fill_path(
                &path,
                &paint(236, 236, 236),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    // The middle line.
    if let Some(r) = Rect::from_xywh(0.0, mid - 0.5, wf, 1.0) {
        pm.fill_rect(r, &paint(150, 150, 150), Transform::identity(), None);
    }
    // The curve.
    if n >= 2 {
        let mut pb = PathBuilder::new();
        pb.move_to(x_of(0), y_of(pawns[0]));
        for (i, &v) in pawns.iter().enumerate().skip(1) {
            pb.line_to(x_of(i), y_of(v));
        }
        if let Some(path) = pb.finish() {
            let stroke = Stroke {
                width: 2.0,
                ..Stroke::default()
            };
            pm.stroke_path(
                &path,
                &paint(214, 79, 0),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }
    // The judged moves.
    for m in marks.iter().filter(|m| m.index < n) {
        let colour = match m.severity {
            1 => paint(86, 180, 233),
            2 => paint(230, 159, 0),
            _ => paint(219, 48, 48),
        };
        let (x, y) = (x_of(m.index), y_of(pawns[m.index]));
        if let Some(c) = PathBuilder::from_circle(x, y, 4.0) {
            pm.fill_path(&c, &colour, FillRule::Winding, Transform::identity(), None);
        }
    }
    let mut img = RgbImage::new(w, h, [0, 0, 0]);
    img.blit_pixmap(&pm);
    img.encode_png()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let dec = png::Decoder::new(std::io::Cursor::new(png));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    fn light(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> bool {
        let i = ((y * img.0 + x) * 3) as usize;
        img.2[i] > 200
    }

    #[test]
    fn white_s_advantage_is_light_above_the_middle_and_clamped() {
        let opts = ChartOptions {
            width: 200,
            height: 100,
            clamp: 10.0,
        };
        // +5 on the left half, -50 (clamped to -10) on the right half.
        let pawns = [5.0, 5.0, 5.0, -50.0, -50.0, -50.0];
        let img = decode(&eval_chart(&pawns, &[], opts));
        assert_eq!((img.0, img.1), (200, 100));
        // Left: light from a quarter of the height (+5 of 10) down.
        assert!(light(&img, 10, 40) && light(&img, 10, 90));
        assert!(!light(&img, 10, 10));
        // Right: all dark (Black at the clamp), the bottom edge included.
        assert!(!light(&img, 190, 60) && !light(&img, 190, 97));
        // The same input gives the same bytes.
        assert_eq!(eval_chart(&pawns, &[], opts), eval_chart(&pawns, &[], opts));
        // Odd input draws something rather than failing.
        assert!(!eval_chart(&[], &[], opts).is_empty());
        assert!(
            !eval_chart(
                &[f32::NAN],
                &[Mark {
                    index: 9,
                    severity: 3
                }],
                opts
            )
            .is_empty()
        );
    }
}
