//! The static metrics page: `index.html` and its stylesheet, rendered from a
//! checked `published-metrics/v1` snapshot.
//!
//! No script, no fetch, no external resource: the charts are SVG drawn here,
//! with their values written on them, a text alternative, and the table of
//! figures under each. Every text from the snapshot is escaped. The output
//! depends on the snapshot alone, so the page can be checked against it.

use std::fmt::Write as _;

// Text made safe for HTML (element content and quoted attributes).
use x402_verdict_core::image::escape_markup as escape;
use x402_verdict_core::Month;
use x402_verdict_metrics::{Figure, Figures, KnownSeries, Point, PublishedMetrics, Series};

/// The stylesheet's file name, beside `index.html`.
pub const STYLESHEET: &str = "metrics.css";

/// The stylesheet.
pub const CSS: &str = include_str!("page.css");

/// The chart's drawing area, in SVG units.
const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 72.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 60.0;

/// How a known series is shown.
struct Presentation {
    title: &'static str,
    what: &'static str,
    chart: Chart,
    y_title: &'static str,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chart {
    /// Bars per month, one per figure.
    Bars,
    /// A line of a ratio, drawn as a percentage.
    RatioLine,
    /// No chart (figures read by the generic rule).
    None,
}

fn presentation(series: KnownSeries) -> Presentation {
    match series {
        KnownSeries::SellersAttested => Presentation {
            title: "Sellers attested",
            what: "At each month's end: every seller endpoint attested so far (cumulative), those whose attestation still stood (active: not withdrawn, not past its renewal deadline), and the active ones outside the operator's related-party circle (independent).",
            chart: Chart::Bars,
            y_title: "Sellers",
        },
        KnownSeries::Retention90d => Presentation {
            title: "90-day retention",
            what: "Of the sellers attested at least 90 days before a month's end (eligible), the share still active at its end (retained / eligible). No ratio while none is eligible.",
            chart: Chart::RatioLine,
            y_title: "Share retained",
        },
        KnownSeries::VerificationsFreePath => Presentation {
            title: "Verdicts served (free path)",
            what: "Verdict answers the service served each month (found and not listed), counted as one aggregate number: no record of any single verification exists.",
            chart: Chart::Bars,
            y_title: "Verdicts",
        },
        KnownSeries::IndependentVerifiers => Presentation {
            title: "Independent verifiers",
            what: "Verifiers outside the operator's related-party circle.",
            chart: Chart::Bars,
            y_title: "Verifiers",
        },
        KnownSeries::Revenue => Presentation {
            title: "Revenue (context only)",
            what: "Revenue, shown as context only: it measures no adoption.",
            chart: Chart::None,
            y_title: "",
        },
    }
}

/// The page for `metrics`.
pub fn render(metrics: &PublishedMetrics) -> String {
    let operator = &metrics.operator;
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Published metrics: {name}</title>\n<link rel=\"stylesheet\" href=\"{STYLESHEET}\">\n\
         </head>\n<body>\n<header>\n<h1>Published metrics</h1>\n\
         <p class=\"as-of\">Published by <strong>{name}</strong>. Figures as of \
         <time datetime=\"{as_of}\">{as_of}</time>{period}.</p>\n</header>\n<main>\n",
        name = escape(&operator.name),
        as_of = metrics.as_of.last_date(),
        period = match metrics.period {
            Some((from, to)) if from == to => format!(", for the complete month {to}"),
            Some((from, to)) => format!(", for the complete months {from} to {to}"),
            None => String::new(),
        },
    );
    disclosure(&mut out, metrics);
    if metrics.period.is_none() {
        out.push_str(
            "<section class=\"empty\" id=\"nothing-yet\">\n<h2>Nothing to publish yet</h2>\n\
             <p>No complete month holds a record yet. The first figures appear once the first \
             month with an attestation or a counted verdict has ended.</p>\n</section>\n",
        );
    }
    for series in &metrics.series {
        section(&mut out, series, metrics.period.is_some());
    }
    let _ = write!(
        out,
        "</main>\n<footer>\n<p>Counts and ratios only: no identifier, no endpoint and nothing \
         personal is published, and no record of individual verifications exists behind these \
         figures. Complete months only.</p>\n<p>A static page (no script) written by \
         <code>x402-verdict metrics page</code> from a snapshot of the service's \
         <code>/v0/metrics</code> (<code>published-metrics/v1</code>) as of {}.</p>\n\
         </footer>\n</body>\n</html>\n",
        metrics.as_of.last_date()
    );
    out
}

fn disclosure(out: &mut String, metrics: &PublishedMetrics) {
    let operator = &metrics.operator;
    let (class, flag) = if metrics.related_party {
        (
            "disclosure related",
            "<strong>Related party: yes.</strong> The operator runs a related-party pilot: \
             nothing measured here counts as independent adoption.",
        )
    } else {
        (
            "disclosure",
            "<strong>Related party: no.</strong> The operator reports no related-party pilot.",
        )
    };
    let _ = write!(
        out,
        "<section class=\"{class}\" id=\"disclosure\" aria-labelledby=\"disclosure-title\">\n\
         <h2 id=\"disclosure-title\">Operator disclosure</h2>\n<p class=\"flag\">{flag}</p>\n\
         <p class=\"disclosure-text\">{}</p>\n</section>\n",
        escape(&operator.disclosure)
    );
}

fn section(out: &mut String, series: &Series, has_period: bool) {
    let id = escape(&series.id);
    let shown = series.known.map(presentation);
    let title = shown
        .as_ref()
        .map_or_else(|| format!("Unknown series “{id}”"), |p| p.title.to_owned());
    let _ = write!(
        out,
        "<section class=\"series\" id=\"series-{id}\" data-series=\"{id}\">\n<h2>{title}</h2>\n\
         <p class=\"meta\">Series <code>{id}</code> · {} · related party: {}</p>\n",
        escape(&series.discipline),
        if series.related_party { "yes" } else { "no" }
    );
    match &shown {
        Some(p) => {
            let _ = writeln!(out, "<p class=\"what\">{}</p>", p.what);
        }
        None => out.push_str(
            "<p class=\"what\">This reader does not know this series: its figures are shown as \
             published, without a chart.</p>\n",
        ),
    }
    match &series.figures {
        Figures::Unavailable { reason } => {
            let _ = writeln!(
                out,
                "<p class=\"reason\"><strong>Not available.</strong> {}</p>",
                escape(reason)
            );
        }
        Figures::Available(points) if points.is_empty() => {
            if has_period {
                out.push_str("<p class=\"reason\">No complete month has figures yet.</p>\n");
            }
        }
        Figures::Available(points) => {
            if let Some(p) = shown.as_ref().filter(|p| p.chart != Chart::None) {
                chart(out, &id, &title, p, points);
            }
            table(out, &title, points);
        }
    }
    out.push_str("</section>\n");
}

/// A figure as the table shows it: the snapshot's number, or a dash.
fn figure_text(figure: Figure) -> String {
    match figure {
        Figure::Count(n) => n.to_string(),
        Figure::Ratio(r) => r.to_string(),
        Figure::Missing => "–".to_owned(),
    }
}

fn table(out: &mut String, title: &str, points: &[Point]) {
    // Every figure name, in the order first met (an unknown series' points may differ).
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in points.iter().flat_map(|p| &p.figures) {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    let _ = write!(
        out,
        "<table>\n<caption>{title}: figures by month</caption>\n<thead><tr><th scope=\"col\">Month</th>"
    );
    for name in &names {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(name));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for point in points {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", point.period);
        for name in &names {
            let _ = write!(
                out,
                "<td data-field=\"{}\">{}</td>",
                escape(name),
                figure_text(point.get(name).unwrap_or(Figure::Missing))
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
}

/// A round upper bound of the y axis and its tick step, for counts up to `max`.
fn count_scale(max: f64) -> (f64, f64) {
    let mut step = 1.0;
    loop {
        for factor in [1.0, 2.0, 5.0] {
            if max <= step * factor * 5.0 {
                let step = step * factor;
                return ((max / step).ceil().max(1.0) * step, step);
            }
        }
        step *= 10.0;
    }
}

/// Grouped bars (counts) or a line (a ratio, in percent), with each value
/// written on the chart, both axes labelled, and a text alternative.
fn chart(out: &mut String, id: &str, title: &str, shown: &Presentation, points: &[Point]) {
    let names: Vec<&str> = points[0].figures.iter().map(|(n, _)| n.as_str()).collect();
    let ratio = shown.chart == Chart::RatioLine;
    let value = |figure: Figure| match figure {
        Figure::Count(n) => Some(n as f64),
        Figure::Ratio(r) => Some(r),
        Figure::Missing => None,
    };
    // Bars draw every figure; the ratio line draws the ratio only.
    let drawn: Vec<&str> = if ratio { vec!["ratio"] } else { names.clone() };
    let series: Vec<Vec<Option<f64>>> = drawn
        .iter()
        .map(|name| points.iter().map(|p| p.get(name).and_then(value)).collect())
        .collect();
    let max = series
        .iter()
        .flatten()
        .flatten()
        .fold(0.0_f64, |a, &b| a.max(b));
    let (top, step) = if ratio { (1.0, 0.25) } else { count_scale(max) };
    let label = |v: f64| {
        if ratio {
            format!("{} %", (v * 1000.0).round() / 10.0)
        } else {
            format!("{v}")
        }
    };
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let y = |v: f64| TOP + plot_h - v / top * plot_h;
    let slot = plot_w / points.len() as f64;
    let months: Vec<Month> = points.iter().map(|p| p.period).collect();
    let _ = write!(
        out,
        "<figure>\n<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" \
         aria-labelledby=\"{id}-title {id}-desc\">\n<title id=\"{id}-title\">{title}</title>\n\
         <desc id=\"{id}-desc\">{}</desc>\n",
        describe(&drawn, &months, &series, &label)
    );
    // Grid and y axis.
    let mut tick = 0.0;
    while tick <= top + 1e-9 {
        let _ = writeln!(
            out,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
             <text class=\"tick\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            WIDTH - RIGHT,
            LEFT - 8.0,
            y(tick) + 4.0,
            label(tick),
            y = y(tick),
        );
        tick += step;
    }
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{LEFT}\" y1=\"{TOP}\" y2=\"{b}\"/>\
         <line class=\"axis\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{b}\" y2=\"{b}\"/>\n\
         <text class=\"axis-title\" transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n\
         <text class=\"axis-title\" x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">Month</text>\n",
        WIDTH - RIGHT,
        TOP + plot_h / 2.0,
        shown.y_title,
        LEFT + plot_w / 2.0,
        HEIGHT - 8.0,
        b = TOP + plot_h,
    );
    // Month labels: every one while they fit, else every n-th.
    let every = (points.len() / 12).max(1);
    for (i, month) in months.iter().enumerate().filter(|(i, _)| i % every == 0) {
        let _ = writeln!(
            out,
            "<text class=\"month\" x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{month}</text>",
            LEFT + slot * (i as f64 + 0.5),
            TOP + plot_h + 20.0
        );
    }
    if ratio {
        let path: Vec<String> = series[0]
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                v.map(|v| format!("{:.1},{:.1}", LEFT + slot * (i as f64 + 0.5), y(v)))
            })
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"line s0\" points=\"{}\"/>",
            path.join(" ")
        );
        for (i, v) in series[0].iter().enumerate() {
            let x = LEFT + slot * (i as f64 + 0.5);
            match v {
                Some(v) => {
                    let _ = writeln!(
                        out,
                        "<circle class=\"dot s0\" cx=\"{x:.1}\" cy=\"{:.1}\" r=\"4\"/>\
                         <text class=\"value\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                        y(*v),
                        y(*v) - 10.0,
                        label(*v)
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "<text class=\"value none\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">no ratio</text>",
                        TOP + plot_h - 8.0
                    );
                }
            }
        }
    } else {
        let group = slot * 0.8;
        let bar = group / series.len() as f64;
        for (s, values) in series.iter().enumerate() {
            for (i, v) in values.iter().enumerate() {
                let Some(v) = v else { continue };
                let x = LEFT + slot * i as f64 + (slot - group) / 2.0 + bar * s as f64;
                let _ = writeln!(
                    out,
                    "<rect class=\"bar s{s}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>\
                     <text class=\"value\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                    y(*v),
                    bar - 2.0,
                    TOP + plot_h - y(*v),
                    x + (bar - 2.0) / 2.0,
                    y(*v) - 5.0,
                    label(*v)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    if drawn.len() > 1 {
        out.push_str("<ul class=\"legend\">");
        for (s, name) in drawn.iter().enumerate() {
            let _ = write!(
                out,
                "<li><span class=\"key s{s}\" aria-hidden=\"true\"></span>{}</li>",
                escape(name)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</figure>\n");
}

/// The chart's text alternative: every value, month by month.
fn describe(
    names: &[&str],
    months: &[Month],
    series: &[Vec<Option<f64>>],
    label: &dyn Fn(f64) -> String,
) -> String {
    let by_month: Vec<String> = months
        .iter()
        .enumerate()
        .map(|(i, month)| {
            let figures: Vec<String> = names
                .iter()
                .zip(series)
                .map(|(name, values)| match values[i] {
                    Some(v) => format!("{} {}", escape(name), label(v)),
                    None => format!("{} none", escape(name)),
                })
                .collect();
            format!("{month}: {}", figures.join(", "))
        })
        .collect();
    format!(
        "From {} to {}. {}.",
        months[0],
        months[months.len() - 1],
        by_month.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_scales_counts() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(count_scale(0.0), (1.0, 1.0));
        assert_eq!(count_scale(3.0), (3.0, 1.0));
        assert_eq!(count_scale(7.0), (8.0, 2.0));
        assert_eq!(count_scale(1234.0), (1500.0, 500.0));
    }
}
