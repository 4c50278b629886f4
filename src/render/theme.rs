//! Board themes: plain data in `assets/themes/*.toml`, embedded in the binary.

use serde::Deserialize;

/// An opaque colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// A colour with straight (not premultiplied) alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb` for SVG attributes.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

impl Rgba {
    /// This colour blended over an opaque one (source-over), rounded.
    pub fn over(self, under: Rgb) -> Rgb {
        let a = u32::from(self.3);
        let mix = |s: u8, d: u8| -> u8 {
            let v = u32::from(s) * a + u32::from(d) * (255 - a);
            ((v + 127) / 255) as u8
        };
        Rgb(
            mix(self.0, under.0),
            mix(self.1, under.1),
            mix(self.2, under.2),
        )
    }
}

/// A board theme: square colours, highlight colours and coordinate colours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// The name used to choose it (`brown`, `blue`, `green`).
    pub name: String,
    /// Light squares.
    pub light: Rgb,
    /// Dark squares.
    pub dark: Rgb,
    /// Blended over both squares of the last move.
    pub last_move: Rgba,
    /// The centre colour of the glow under a king in check.
    pub check: Rgb,
    /// Coordinate labels drawn on a light square.
    pub coord_on_light: Rgb,
    /// Coordinate labels drawn on a dark square.
    pub coord_on_dark: Rgb,
}

impl Theme {
    /// The colour of a square of the given shade, with or without the last-move tint.
    pub fn square(&self, light: bool, last_move: bool) -> Rgb {
        let base = if light { self.light } else { self.dark };
        if last_move {
            self.last_move.over(base)
        } else {
            base
        }
    }

    /// The colour of a coordinate label on a square of the given shade.
    pub fn coord(&self, light: bool) -> Rgb {
        if light {
            self.coord_on_light
        } else {
            self.coord_on_dark
        }
    }

    /// Parses a theme file (TOML). The error says which key is wrong and why.
    pub fn from_toml(text: &str) -> Result<Theme, String> {
        let raw: RawTheme = toml::from_str(text).map_err(|e| e.message().to_string())?;
        let rgb = |key: &str, v: &str| parse_rgb(v).ok_or_else(|| bad_colour(key, v, "#rrggbb"));
        Ok(Theme {
            light: rgb("light", &raw.light)?,
            dark: rgb("dark", &raw.dark)?,
            last_move: parse_rgba(&raw.last_move)
                .ok_or_else(|| bad_colour("last_move", &raw.last_move, "#rrggbb or #rrggbbaa"))?,
            check: rgb("check", &raw.check)?,
            coord_on_light: rgb("coord_on_light", &raw.coord_on_light)?,
            coord_on_dark: rgb("coord_on_dark", &raw.coord_on_dark)?,
            name: raw.name,
        })
    }
}

fn bad_colour(key: &str, value: &str, want: &str) -> String {
    format!("`{key}` is {value:?}, expected a colour written {want}")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTheme {
    name: String,
    light: String,
    dark: String,
    last_move: String,
    check: String,
    coord_on_light: String,
    coord_on_dark: String,
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    let h = s.strip_prefix('#')?;
    if !h.is_ascii() || h.len() % 2 != 0 {
        return None;
    }
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
        .collect()
}

fn parse_rgb(s: &str) -> Option<Rgb> {
    match hex_bytes(s)?.as_slice() {
        [r, g, b] => Some(Rgb(*r, *g, *b)),
        _ => None,
    }
}

fn parse_rgba(s: &str) -> Option<Rgba> {
    match hex_bytes(s)?.as_slice() {
        [r, g, b] => Some(Rgba(*r, *g, *b, 255)),
        [r, g, b, a] => Some(Rgba(*r, *g, *b, *a)),
        _ => None,
    }
}

/// The theme files embedded in the binary, default first.
const BUILTIN: [(&str, &str); 3] = [
    ("brown", include_str!("../../assets/themes/brown.toml")),
    ("blue", include_str!("../../assets/themes/blue.toml")),
    ("green", include_str!("../../assets/themes/green.toml")),
];

/// The name of the default theme.
pub const DEFAULT_THEME: &str = "brown";

/// The built-in themes, the default (brown) first.
///
/// # Panics
/// Never in a tested build: a unit test parses every embedded file.
pub fn builtin_themes() -> Vec<Theme> {
    BUILTIN
        .iter()
        .map(|(file, text)| {
            Theme::from_toml(text)
                .unwrap_or_else(|e| panic!("embedded theme {file}.toml is invalid: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_theme_parses_and_is_named_after_its_file() {
        let themes = builtin_themes();
        assert_eq!(themes.len(), BUILTIN.len());
        for (theme, (file, _)) in themes.iter().zip(BUILTIN) {
            assert_eq!(theme.name, file);
        }
        assert_eq!(themes[0].name, DEFAULT_THEME);
    }

    #[test]
    fn lichess_brown_last_move_tint_matches_the_published_blend() {
        let brown = &builtin_themes()[0];
        // lichess-brown's published last-move squares: #cdd26a on light, #aaa23a on dark.
        assert_eq!(brown.square(true, true), Rgb(0xcd, 0xd2, 0x6a));
        assert_eq!(brown.square(false, true), Rgb(0xaa, 0xa2, 0x3a));
        assert_eq!(brown.square(true, false), Rgb(0xf0, 0xd9, 0xb5));
    }

    #[test]
    fn bad_colours_are_reported_by_key() {
        let text = BUILTIN[0]
            .1
            .replace("dark = \"#b58863\"", "dark = \"#b5886\"");
        let err = Theme::from_toml(&text).unwrap_err();
        assert!(err.contains("`dark`"), "{err}");
        assert!(Theme::from_toml("name = 1").is_err());
    }
}
