//! The game as an animated GIF: decoded by two independent decoders (the `gif` crate's and a
//! small one written here from the GIF89a specification), frame count, the board area of the
//! first and last frames against the PNG renderer, names the font cannot draw, the size
//! guard.

use cajitas::render::gif::{
    GifCaption, GifOptions, LAST_DELAY_CS, PLY_DELAY_CS, drawable_name, fit_gif, result_text,
    strip_height,
};
use cajitas::render::{BoardView, Highlights, Orientation, RenderOptions, Renderer};
use cajitas_rules::{Color, Game, Lang, Move, Outcome, Position, WinReason, read_move};

/// A decoded animation: the canvas after each frame (RGB), and each frame's delay.
struct Decoded {
    width: usize,
    height: usize,
    frames: Vec<Vec<u8>>,
    delays: Vec<u16>,
    loops_forever: bool,
}

/// A minimal GIF89a decoder, independent of the `gif` crate: global palette, graphic
/// control extensions (delay, transparency, disposal), the NETSCAPE loop, LZW.
fn decode_mini(bytes: &[u8]) -> Decoded {
    assert_eq!(&bytes[..6], b"GIF89a");
    let u16le = |i: usize| usize::from(bytes[i]) | usize::from(bytes[i + 1]) << 8;
    let (width, height) = (u16le(6), u16le(8));
    let flags = bytes[10];
    let mut i = 13;
    let mut palette = Vec::new();
    if flags & 0x80 != 0 {
        let n = 3 << ((flags & 7) + 1);
        palette = bytes[i..i + n].to_vec();
        i += n;
    }
    let mut canvas = vec![0u8; width * height * 3];
    let mut out = Decoded {
        width,
        height,
        frames: Vec::new(),
        delays: Vec::new(),
        loops_forever: false,
    };
    let (mut delay, mut transparent, mut disposal) = (0u16, None, 0u8);
    loop {
        match bytes[i] {
            0x3b => break,
            0x21 => {
                let label = bytes[i + 1];
                i += 2;
                let mut data = Vec::new();
                while bytes[i] != 0 {
                    let n = usize::from(bytes[i]);
                    data.extend_from_slice(&bytes[i + 1..i + 1 + n]);
                    i += 1 + n;
                }
                i += 1;
                if label == 0xf9 {
                    disposal = (data[0] >> 2) & 7;
                    delay = u16::from(data[1]) | u16::from(data[2]) << 8;
                    transparent = (data[0] & 1 != 0).then_some(data[3]);
                } else if label == 0xff && data.starts_with(b"NETSCAPE2.0") {
                    out.loops_forever = data[12] == 0 && data[13] == 0;
                }
            }
            0x2c => {
                let (left, top, w, h) = (u16le(i + 1), u16le(i + 3), u16le(i + 5), u16le(i + 7));
                assert_eq!(bytes[i + 9] & 0xc0, 0, "no local palette, not interlaced");
                i += 10;
                let min_code = bytes[i];
                i += 1;
                let mut data = Vec::new();
                while bytes[i] != 0 {
                    let n = usize::from(bytes[i]);
                    data.extend_from_slice(&bytes[i + 1..i + 1 + n]);
                    i += 1 + n;
                }
                i += 1;
                let indices = lzw_decode(&data, min_code, w * h);
                assert_eq!(indices.len(), w * h);
                assert!(left + w <= width && top + h <= height);
                for y in 0..h {
                    for x in 0..w {
                        let k = indices[y * w + x];
                        if Some(k) == transparent {
                            continue;
                        }
                        let d = ((top + y) * width + left + x) * 3;
                        canvas[d..d + 3].copy_from_slice(&palette[usize::from(k) * 3..][..3]);
                    }
                }
                assert_eq!(disposal, 1, "disposal: keep");
                out.frames.push(canvas.clone());
                out.delays.push(delay);
            }
            b => panic!("unexpected block {b:#x} at {i}"),
        }
    }
    out
}

/// GIF's variable-width LZW, least significant bit first.
fn lzw_decode(data: &[u8], min_code: u8, expected: usize) -> Vec<u8> {
    let clear = 1usize << min_code;
    let end = clear + 1;
    let mut dict: Vec<Vec<u8>> = Vec::new();
    let reset = |dict: &mut Vec<Vec<u8>>| {
        dict.clear();
        for k in 0..clear {
            dict.push(vec![k as u8]);
        }
        dict.push(Vec::new());
        dict.push(Vec::new());
    };
    reset(&mut dict);
    let mut width = u32::from(min_code) + 1;
    let (mut bitbuf, mut nbits, mut pos) = (0u32, 0u32, 0usize);
    let mut prev: Option<usize> = None;
    let mut out = Vec::with_capacity(expected);
    loop {
        while nbits < width {
            if pos >= data.len() {
                return out;
            }
            bitbuf |= u32::from(data[pos]) << nbits;
            pos += 1;
            nbits += 8;
        }
        let code = (bitbuf & ((1 << width) - 1)) as usize;
        bitbuf >>= width;
        nbits -= width;
        if code == clear {
            reset(&mut dict);
            width = u32::from(min_code) + 1;
            prev = None;
            continue;
        }
        if code == end {
            return out;
        }
        let entry = match prev {
            None => dict[code].clone(),
            Some(p) => {
                let e = if code < dict.len() {
                    dict[code].clone()
                } else {
                    let mut e = dict[p].clone();
                    e.push(dict[p][0]);
                    e
                };
                let mut new = dict[p].clone();
                new.push(e[0]);
                if dict.len() < 4096 {
                    dict.push(new);
                }
                e
            }
        };
        out.extend_from_slice(&entry);
        prev = Some(code);
        if dict.len() == (1 << width) && width < 12 {
            width += 1;
        }
    }
}

/// The same animation through the `gif` crate's decoder: (frame count, delays).
fn decode_gif_crate(bytes: &[u8]) -> (usize, Vec<u16>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(bytes).expect("gif crate reads the header");
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().expect("gif crate reads a frame") {
        delays.push(f.delay);
    }
    (delays.len(), delays)
}

fn game_of(moves: &str) -> Game {
    let mut game = Game::new();
    for m in moves.split_whitespace() {
        let mv: Move = read_move(game.position(), m, Lang::En).expect(m);
        game.play(mv);
    }
    game
}

fn caption(white: &str, black: &str) -> GifCaption {
    GifCaption {
        white: white.into(),
        black: black.into(),
        outcome: Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Checkmate,
        }),
        lang: Lang::En,
        opening: None,
    }
}

const SCHOLARS: &str = "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#";

/// Compares the board area of a decoded canvas with the PNG renderer's pixels.
fn assert_board_matches(d: &Decoded, frame: usize, pos: &Position, last: Option<Move>, size: u32) {
    let img = Renderer::new()
        .render_image(
            &BoardView::from(pos),
            &Highlights::after(pos, last),
            &RenderOptions {
                size,
                orientation: Orientation::White,
                theme: "brown".into(),
            },
        )
        .unwrap();
    let canvas = &d.frames[frame];
    let (mut far, mut total) = (0usize, 0u64);
    let n = (size * size) as usize;
    for y in 0..size {
        for x in 0..size {
            let want = img.pixel(x, y);
            let at = ((y as usize) * d.width + x as usize) * 3;
            let got = &canvas[at..at + 3];
            let diff = (0..3)
                .map(|c| (i32::from(want[c]) - i32::from(got[c])).unsigned_abs())
                .max()
                .unwrap();
            total += u64::from(diff);
            if diff > 40 {
                far += 1;
            }
        }
    }
    let mean = total as f64 / n as f64;
    assert!(mean < 3.0, "frame {frame}: mean difference {mean:.2}");
    assert!(
        far * 200 < n,
        "frame {frame}: {far} of {n} pixels differ by more than 40 levels"
    );
}

#[test]
fn a_game_decodes_with_two_decoders_one_frame_per_position() {
    let game = game_of(SCHOLARS);
    let size = 256;
    let opts = GifOptions {
        size,
        ..GifOptions::default()
    };
    let bytes = Renderer::new()
        .game_gif(&game, &caption("alice", "bob"), &opts)
        .unwrap();
    let d = decode_mini(&bytes);
    assert_eq!(d.frames.len(), game.moves().len() + 1);
    assert_eq!((d.width, d.height), (256, 256 + strip_height(256) as usize));
    assert!(d.loops_forever);
    assert!(
        d.delays[..d.delays.len() - 1]
            .iter()
            .all(|&x| x == PLY_DELAY_CS)
    );
    assert_eq!(*d.delays.last().unwrap(), LAST_DELAY_CS);
    let (n, delays) = decode_gif_crate(&bytes);
    assert_eq!(n, game.moves().len() + 1);
    assert_eq!(delays, d.delays);

    assert_board_matches(&d, 0, game.start(), None, size);
    assert_board_matches(
        &d,
        d.frames.len() - 1,
        game.position(),
        game.last_move(),
        size,
    );
}

#[test]
fn the_start_positions_cached_first_frame_gives_the_bytes_a_fresh_renderer_gives() {
    // One renderer draws many games: from the second on, the standard start's first frame
    // rows come from its cache and the strip rows continue them.
    let renderer = Renderer::new();
    let opts = GifOptions {
        size: 256,
        ..GifOptions::default()
    };
    let games = [
        (game_of(SCHOLARS), caption("alice", "bob")),
        (game_of("d4 d5"), caption("carol", "dave")),
        (game_of(""), caption("erin", "frank")),
        (game_of("e4 e5 Nf3"), caption("alice", "bob")),
    ];
    for (game, cap) in &games {
        let cached = renderer.game_gif(game, cap, &opts).unwrap();
        let fresh = Renderer::new().game_gif(game, cap, &opts).unwrap();
        assert!(cached == fresh, "{} plies", game.moves().len());
        let d = decode_mini(&cached);
        assert_eq!(d.frames.len(), game.moves().len() + 1);
        assert_board_matches(&d, 0, game.start(), None, 256);
        let last = d.frames.len() - 1;
        assert_board_matches(&d, last, game.position(), game.last_move(), 256);
        // The strip: the names on every frame; the result (a cached line) under them on
        // the last one only.
        let strip = |frame: usize, from: f32, to: f32| {
            let h = strip_height(256) as f32;
            let (y0, y1) = (256 + (h * from) as usize, 256 + (h * to) as usize);
            d.frames[frame][y0 * d.width * 3..y1 * d.width * 3].to_vec()
        };
        let text = |rows: &[u8]| rows.chunks(3).filter(|p| p[0] > 0x80).count();
        assert!(text(&strip(0, 0.0, 0.55)) > 50, "the names are drawn");
        assert_eq!(strip(0, 0.0, 0.55), strip(last, 0.0, 0.55));
        if last > 0 {
            assert_eq!(text(&strip(0, 0.55, 1.0)), 0, "no result before the end");
        }
        assert!(text(&strip(last, 0.55, 1.0)) > 50, "the result is drawn");
    }
    // Another start position (not cached) is drawn as itself, before and after the cached one.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let start = Position::from_fen(fen).unwrap();
    let mut pos = start.clone();
    let m = read_move(&pos, "e4", Lang::En).unwrap();
    pos.play(m);
    let bytes = renderer
        .gif_of_positions(&start, &[m], &caption("g", "h"), &opts)
        .unwrap();
    let d = decode_mini(&bytes);
    assert_eq!(d.frames.len(), 2);
    assert_board_matches(&d, 0, &start, None, 256);
    assert_board_matches(&d, 1, &pos, Some(m), 256);
    let again = renderer.game_gif(&games[1].0, &games[1].1, &opts).unwrap();
    assert_board_matches(&decode_mini(&again), 0, &Position::new(), None, 256);
}

#[test]
fn names_the_font_lacks_do_not_panic_and_are_replaced_visibly() {
    let name = "王小明 🐴♞ <&> \u{7}".repeat(5);
    let shown = drawable_name(&name);
    assert!(shown.contains('□'), "{shown}");
    assert!(shown.chars().count() <= cajitas::render::gif::NAME_MAX_CHARS);
    assert!(!shown.contains('\u{7}'));
    let game = game_of("e4 e5");
    let bytes = Renderer::new()
        .game_gif(
            &game,
            &caption(&name, "😀"),
            &GifOptions {
                size: 128,
                ..GifOptions::default()
            },
        )
        .unwrap();
    assert_eq!(decode_mini(&bytes).frames.len(), 3);
}

#[test]
fn the_result_is_in_the_game_language() {
    let mate = Some(Outcome::Decisive {
        winner: Color::Black,
        reason: WinReason::Checkmate,
    });
    assert_eq!(result_text(mate, Lang::En), "0-1 · Black wins by checkmate");
    assert_eq!(
        result_text(mate, Lang::Es),
        "0-1 · Ganan las negras por jaque mate"
    );
}

#[test]
fn the_size_guard_shrinks_then_cuts_frames_until_it_fits() {
    let game = game_of(SCHOLARS);
    let r = Renderer::new();
    let cap = caption("alice", "bob");
    let opts = GifOptions {
        size: 512,
        ..GifOptions::default()
    };
    let full = r.game_gif(&game, &cap, &opts).unwrap();
    // Fits already: unchanged.
    let (same, used) = fit_gif(&r, game.start(), game.moves(), &cap, &opts, 10 << 20).unwrap();
    assert_eq!(same, full);
    assert_eq!(used.size, 512);
    // A limit below the full size: fewer pixels.
    let limit = full.len() as u64 * 2 / 3;
    let (small, used) = fit_gif(&r, game.start(), game.moves(), &cap, &opts, limit).unwrap();
    assert!(small.len() as u64 <= limit);
    assert!(used.size < 512);
    assert_eq!(decode_mini(&small).frames.len(), game.moves().len() + 1);
    // Below what the smallest board can hold: frames are cut.
    let tiny = r
        .game_gif(
            &game,
            &cap,
            &GifOptions {
                size: 128,
                ..GifOptions::default()
            },
        )
        .unwrap();
    let limit = tiny.len() as u64 - 1;
    let (cut, used) = fit_gif(&r, game.start(), game.moves(), &cap, &opts, limit).unwrap();
    assert!(used.stride > 1);
    assert_eq!(used.size, 128);
    assert!(cut.len() as u64 <= limit, "{} > {limit}", cut.len());
    let d = decode_mini(&cut);
    assert!(d.frames.len() < game.moves().len() + 1);
}

/// Issue 25 item 15: the moves given to `gif_of_positions` come from outside; one that is
/// not legal where it is played is an error naming it, never a panic.
#[test]
fn an_illegal_move_in_the_list_is_an_error_not_a_panic() {
    let start = Position::new();
    let e4 = read_move(&start, "e4", Lang::En).unwrap();
    // e4 twice: the second is not legal (Black to move, and no white pawn on e2).
    let err = Renderer::new()
        .gif_of_positions(
            &start,
            &[e4, e4],
            &caption("Ana", "Bo"),
            &GifOptions::default(),
        )
        .unwrap_err();
    assert_eq!(err, cajitas::render::RenderError::IllegalMove { ply: 1 });
    assert!(err.to_string().contains("move 2"), "{err}");
}

/// The opening follows the names in the strip when the line has room for it, and is left
/// out when it has not.
#[test]
fn the_opening_follows_the_names_when_it_fits() {
    let renderer = Renderer::new();
    let game = game_of(SCHOLARS);
    let opts = GifOptions {
        size: 480,
        ..GifOptions::default()
    };
    let gif = |opening: Option<&str>| {
        let mut c = caption("alice", "bob");
        c.opening = opening.map(str::to_owned);
        renderer.game_gif(&game, &c, &opts).unwrap()
    };
    let plain = gif(None);
    assert!(gif(Some("Italian Game")) != plain, "the opening is drawn");
    let long = "Sicilian Defense: Najdorf Variation, English Attack, Anti-English".repeat(3);
    assert!(
        gif(Some(&long)) == plain,
        "a line too long for the strip keeps the names only"
    );
}
