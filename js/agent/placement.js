// Where the seller module's snippets go in a page it did not write: found by
// an HTML parser (parse5, the WHATWG parsing rules, as a browser reads the
// page), never by searching the page's text, and checked before the page is
// served.
//
// The badges' list goes first in the body: right after the page's own
// <body> tag, or before the body's first node when the tag is implied. The
// head snippet goes before the page's own </head>, else right after its own
// <head> tag, else after the list. At those tokens the parser's state is
// known whatever came before (the body's tag leaves it in the body with
// nothing else open; </head> and <head> find it in the head with nothing else
// open), and the module's balanced snippets leave that state as they found
// it, so the rest of the page reads as it did. So when the page has its own
// <body> tag and no <noscript> before it (which reads one way with scripting
// and another without), only the page up to that tag is parsed: the first
// 64 KiB, or more when the body starts further on; a 3.5 MB page whose body
// starts early costs what a small one does. Otherwise the whole page is.
//
// Either way, what was parsed is parsed again with the snippets placed, with
// scripting on and, when it holds a <noscript>, off: each time it must read
// as the provider's page plus the module's nodes alone, the head snippet's
// as children of <head> (or after the badges) and the list as a child of
// <body>. Otherwise the provider's page is served as it is, without badges.
import { parse } from "parse5";

/** How much of the page is parsed first to find where its body starts; four times more each time it does not. */
const FIRST_READ = 64 * 1024;

/** A node's fields that are no part of what it is. */
const NOT_COMPARED = new Set(["parentNode", "sourceCodeLocation", "childNodes", "content"]);

/** The element child of `parent` named `name`. */
const childNamed = (parent, name) => parent?.childNodes.find((node) => node.nodeName === name);

/** Whether `a` and `b` are the same tree: names, namespaces, attributes, text, and children (a template's content too), in order. */
function sameTree(a, b) {
  const pending = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop();
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    for (const key of keys) {
      if (!NOT_COMPARED.has(key) && JSON.stringify(x[key]) !== JSON.stringify(y[key])) return false;
    }
    if ((x.content === undefined) !== (y.content === undefined)) return false;
    if (x.content) pending.push([x.content, y.content]);
    const [xs, ys] = [x.childNodes ?? [], y.childNodes ?? []];
    if (xs.length !== ys.length) return false;
    xs.forEach((child, i) => pending.push([child, ys[i]]));
  }
  return true;
}

/**
 * Takes the first run of nodes in `parent`'s children that is `run` out of
 * them, joining the text on either side as the parser would have; false when
 * there is no such run.
 */
function takeOut(parent, run) {
  const children = parent?.childNodes ?? [];
  for (let at = 0; at + run.length <= children.length; at += 1) {
    if (run.every((node, i) => sameTree(children[at + i], node))) {
      children.splice(at, run.length);
      const [before, after] = [children[at - 1], children[at]];
      if (before?.nodeName === "#text" && after?.nodeName === "#text") {
        before.value += after.value;
        children.splice(at, 1);
      }
      return true;
    }
  }
  return false;
}

/** The <html>, <head> and <body> of a parsed document. */
function partsOf(document) {
  const html = childNamed(document, "html");
  return { head: childNamed(html, "head"), body: childNamed(html, "body") };
}

/**
 * Where the snippets go in `page` (the file's comment): `bodyAt` and
 * `headAt` (undefined: with the list), and `read`, how much of the page
 * decides the placement; undefined when the page has no body (a frameset).
 */
function placesIn(page) {
  for (let read = Math.min(FIRST_READ, page.length); ; read = Math.min(read * 4, page.length)) {
    const { head, body } = partsOf(parse(page.slice(0, read), { sourceCodeLocationInfo: true }));
    const bodyTag = body?.sourceCodeLocation?.startTag;
    const first = body?.childNodes[0]?.sourceCodeLocation;
    // A body that only the end of what was read implied starts further on.
    if (!bodyTag && !first && read < page.length) continue;
    if (!body) return undefined;
    const bodyAt = bodyTag?.endOffset ?? first?.startOffset ?? page.length;
    const headAt = head?.sourceCodeLocation?.endTag?.startOffset ?? head?.sourceCodeLocation?.startTag?.endOffset;
    const known = bodyTag !== undefined && !/<noscript/i.test(page.slice(0, bodyAt));
    return { bodyAt, headAt, read: known ? read : page.length };
  }
}

/**
 * `page` with `head` (the head snippet) and `body` (the badges' list) placed
 * as the parser says (the file's comment), or `page` itself when they cannot
 * be placed so.
 */
export function withBadges(page, head, body) {
  const places = placesIn(page);
  if (!places) return page;
  const { bodyAt, headAt, read } = places;
  const inHead = headAt !== undefined;
  const placed = inHead
    ? page.slice(0, headAt) + head + page.slice(headAt, bodyAt) + body + page.slice(bodyAt)
    : page.slice(0, bodyAt) + body + head + page.slice(bodyAt);
  const added = head.length + body.length;
  // The module's nodes, as the parser makes them.
  const own = partsOf(parse(`<!doctype html><head>${inHead ? head : ""}</head><body>${body}${inHead ? "" : head}</body>`));
  const scripting = /<noscript/i.test(page.slice(0, read)) ? [true, false] : [true];
  for (const scriptingEnabled of scripting) {
    const before = parse(page.slice(0, read), { scriptingEnabled });
    const after = parse(placed.slice(0, read + added), { scriptingEnabled });
    const { head: afterHead, body: afterBody } = partsOf(after);
    if (inHead && !takeOut(afterHead, own.head.childNodes)) return page;
    if (!takeOut(afterBody, own.body.childNodes) || !sameTree(before, after)) return page;
  }
  return placed;
}
