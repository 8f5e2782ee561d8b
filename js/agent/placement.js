// Where the seller module's snippets go in a page it did not write: found by
// an HTML parser (parse5, the WHATWG parsing rules, as a browser reads the
// page), never by searching the page's text, and checked before the page is
// served. The head snippet goes before the token that ends the <head> (its
// </head>, or what closes it implicitly) and the badges before the </body>
// that ends the body (at the page's end when it has none); when the page has
// no <head> the parser located, the head snippet follows the badges. The
// page is then parsed again, with scripting on and, when it holds a
// <noscript>, off: each time it must read as the provider's page plus the
// module's nodes alone, the head snippet's as children of <head> (or after
// the badges) and the badges' list as a child of <body>. Otherwise the
// provider's page is served as it is, without badges.
import { parse } from "parse5";

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
 * Takes the last run of nodes in `parent`'s children that is `run` out of
 * them, joining the text on either side as the parser would have; false when
 * there is no such run.
 */
function takeOut(parent, run) {
  const children = parent?.childNodes ?? [];
  for (let at = children.length - run.length; at >= 0; at -= 1) {
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
 * `page` with `head` (the head snippet) and `body` (the badges' list) placed
 * as the parser says (the file's comment), or `page` itself when they cannot
 * be placed so.
 */
export function withBadges(page, head, body) {
  const original = parse(page, { sourceCodeLocationInfo: true });
  const parts = partsOf(original);
  const bodyAt = parts.body?.sourceCodeLocation?.endTag?.startOffset ?? page.length;
  const headEnd = parts.head?.sourceCodeLocation;
  const headAt = headEnd ? headEnd.endTag?.startOffset ?? headEnd.endOffset : undefined;
  const inHead = headAt !== undefined && headAt <= bodyAt;
  const placed = inHead
    ? page.slice(0, headAt) + head + page.slice(headAt, bodyAt) + body + page.slice(bodyAt)
    : page.slice(0, bodyAt) + body + head + page.slice(bodyAt);
  // The module's nodes, as the parser makes them.
  const own = partsOf(parse(`<!doctype html><head>${inHead ? head : ""}</head><body>${body}${inHead ? "" : head}</body>`));
  const scripting = /<noscript/i.test(page) ? [true, false] : [true];
  for (const scriptingEnabled of scripting) {
    const before = scriptingEnabled ? original : parse(page, { scriptingEnabled });
    const after = parse(placed, { scriptingEnabled });
    const { head: afterHead, body: afterBody } = partsOf(after);
    if (inHead && !takeOut(afterHead, own.head.childNodes)) return page;
    if (!takeOut(afterBody, own.body.childNodes) || !sameTree(before, after)) return page;
  }
  return placed;
}
