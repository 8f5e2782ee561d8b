//! The picture: an image badge's shapes, words and colours from a state,
//! in each of shields.io's three styles, with the sizes of its badges (20
//! px high, 11 px Verdana; 28 px and 10 px capitals for `for-the-badge`).

use crate::evaluate::Evaluation;
use crate::text::accessible_name;
use crate::writing::text;

use super::look::{Colours, Look};

/// The words on an image badge's left part (shields.io's "label").
pub const IMAGE_LABEL: &str = "x402";

/// The fonts an image badge's words are set in: shields.io's.
const FONTS: &str = "Verdana,Geneva,DejaVu Sans,sans-serif";

/// An image badge's style, as shields.io names its styles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// 20 px high, rounded corners (the default).
    Flat,
    /// 20 px high, square corners.
    FlatSquare,
    /// 28 px high, square corners, capitals.
    ForTheBadge,
}

impl Style {
    /// Every style.
    pub const ALL: [Style; 3] = [Style::Flat, Style::FlatSquare, Style::ForTheBadge];

    /// Its name in the `style` parameter: `flat`, `flat-square`, `for-the-badge`.
    pub fn as_str(self) -> &'static str {
        match self {
            Style::Flat => "flat",
            Style::FlatSquare => "flat-square",
            Style::ForTheBadge => "for-the-badge",
        }
    }

    /// The style named `name`, if any.
    pub fn parse(name: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// Its sizes, in tenths of a pixel.
    fn metrics(self) -> Metrics {
        match self {
            Style::Flat => Metrics {
                height: 200,
                radius: 30,
                font: 11,
                baseline: 140,
                padding: 60,
                capitals: false,
            },
            Style::FlatSquare => Metrics {
                radius: 0,
                ..Style::Flat.metrics()
            },
            Style::ForTheBadge => Metrics {
                height: 280,
                radius: 0,
                font: 10,
                baseline: 180,
                padding: 120,
                capitals: true,
            },
        }
    }
}

/// A style's sizes: lengths in tenths of a pixel, the font's in pixels.
struct Metrics {
    height: u32,
    radius: u32,
    font: u32,
    baseline: u32,
    /// Either side of each part's words.
    padding: u32,
    /// Words in capitals, spaced one pixel apart.
    capitals: bool,
}

/// The advance of the printable ASCII characters (from the space) in the
/// 11 px sans-serif of the font list (DejaVu Sans's metrics, which
/// Verdana's are close to), in tenths of a pixel. The picture fits each
/// text to its measure (`textLength`), whatever font the viewer has.
const ADVANCES: [u8; 95] = [
    35, 44, 51, 92, 70, 105, 86, 30, 43, 43, 55, 92, 35, 40, 35, 37, 70, 70, 70, 70, 70, 70, 70,
    70, 70, 70, 37, 37, 92, 92, 92, 58, 110, 75, 75, 77, 85, 70, 63, 85, 83, 32, 32, 72, 61, 95,
    82, 87, 66, 87, 76, 70, 67, 81, 75, 109, 75, 67, 75, 43, 37, 43, 92, 55, 55, 67, 70, 60, 70,
    68, 39, 70, 70, 31, 31, 64, 31, 107, 70, 67, 70, 70, 45, 57, 43, 70, 65, 90, 65, 65, 58, 70,
    37, 70, 92,
];

/// `text`'s width at 11 px, in tenths of a pixel.
fn width_11px(text: &str) -> u32 {
    text.chars()
        .map(|c| match c {
            ' '..='~' => u32::from(ADVANCES[c as usize - 32]),
            '·' => 35,
            '✓' | '✕' => 92,
            _ => 110,
        })
        .sum()
}

/// `text`'s width in `metrics`' font, in tenths of a pixel.
fn width(text: &str, metrics: &Metrics) -> u32 {
    let spacing = if metrics.capitals { 10 } else { 0 };
    width_11px(text) * metrics.font / 11 + spacing * text.chars().count() as u32
}

/// Tenths of a pixel as an SVG length: `12`, `12.5`.
fn px(tenths: u32) -> String {
    match tenths % 10 {
        0 => text!("{}", tenths / 10),
        d => text!("{}.{}", tenths / 10, d),
    }
}

/// Up to the next whole pixel.
fn whole(tenths: u32) -> u32 {
    tenths.div_ceil(10) * 10
}

/// `text` as XML character data: `&`, `<` and `>` escaped.
pub(super) fn escape_text(text: &str) -> String {
    escaped(text, false)
}

/// `text` as markup's text or a quoted attribute's value, in XML and HTML
/// alike: `&`, `<`, `>`, `"` and `'` escaped.
pub fn escape_markup(text: &str) -> String {
    escaped(text, true)
}

fn escaped(text: &str, quotes: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quotes => out.push_str("&quot;"),
            '\'' if quotes => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The rules of one colour scheme: the left part filled with the words'
/// colour and worded in the fill's, the right part the other way round,
/// outlined.
fn rules(c: &Colours) -> String {
    text!(
        ".l{{fill:{}}}.r{{fill:{};stroke:{}}}.a{{fill:{}}}.b{{fill:{}}}",
        c.text,
        c.background,
        c.border,
        c.background,
        c.text
    )
}

/// The SVG of `evaluation`'s badge in `style`, with `metadata` (the
/// `<metadata>` element, or nothing) after its title.
pub(super) fn draw(evaluation: &Evaluation, style: Style, metadata: &str) -> String {
    let m = style.metrics();
    let look = Look::of(evaluation.state);
    let label = evaluation.badge_label();
    let name = accessible_name(&label);
    let mut left = IMAGE_LABEL.to_owned();
    let mut right = text!("{} {}", look.mark, label);
    if m.capitals {
        left = left.to_uppercase();
        right = right.to_uppercase();
    }
    let (lw, rw) = (width(&left, &m), width(&right, &m));
    let l = whole(lw + 2 * m.padding);
    let w = l + whole(rw + 2 * m.padding);
    let h = m.height;
    let r = m.radius;
    let left_part = if r > 0 {
        let r = px(r);
        text!(
            "M0 {}a{} {} 0 0 1 {}-{}H{}V{}H{}a{} {} 0 0 1-{}-{}z",
            r,
            r,
            r,
            r,
            r,
            px(l),
            px(h),
            r,
            r,
            r,
            r,
            r
        )
    } else {
        text!("M0 0H{}V{}H0z", px(l), px(h))
    };
    // The outline's middle runs half a pixel inside the edge.
    let right_part = if r > 0 {
        let c = px(r - 5);
        text!(
            "M{} .5H{}a{} {} 0 0 1 {} {}V{}a{} {} 0 0 1-{} {}H{}z",
            px(l),
            px(w - r),
            c,
            c,
            c,
            c,
            px(h - r),
            c,
            c,
            c,
            c,
            px(l)
        )
    } else {
        text!("M{} .5H{}V{}H{}z", px(l), px(w - 5), px(h - 5), px(l))
    };
    let mut hover = evaluation.badge_hover();
    hover.insert_str(0, ". ");
    text!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" aria-label=\"{}\"><title>{}{}</title>{}<style>{}@media (prefers-color-scheme:dark){{{}}}</style><path class=\"l\" d=\"{}\"/><path class=\"r\" d=\"{}\"/><g font-family=\"{}\" font-size=\"{}\" text-anchor=\"middle\"><text class=\"a\" x=\"{}\" y=\"{}\" textLength=\"{}\">{}</text><text class=\"b\" x=\"{}\" y=\"{}\" textLength=\"{}\">{}</text></g></svg>",
        px(w), px(h), px(w), px(h), escape_markup(&name), escape_text(&name), escape_text(&hover), metadata,
        rules(&look.light), rules(&look.dark), left_part, right_part,
        FONTS, m.font,
        px(l / 2), px(m.baseline), px(lw), escape_text(&left),
        px(l + (w - l) / 2), px(m.baseline), px(rw), escape_text(&right)
    )
}
