// Fails when a tracked file refers to something outside the repository: the
// shared design folder that once sat beside it, a relative path that climbs
// above the repository root from the file's own folder, or an issue of the
// tracker by its number. A clone has nothing beside it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((file) => file && !/(^|\/)(Cargo|package-lock)\.(lock|json)$/.test(file) && !file.startsWith("crates/core/tests/vectors/"));

const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(path.join(root, file), "utf8");
  } catch {
    continue; // removed in the working tree
  }
  if (text.includes("\0")) continue; // binary
  text.split("\n").forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (/(^|[^\w.])\.\.\/shared\b/.test(line) || /\bshared\/(design|vectors|hooks)\b/.test(line)) {
      problems.push(`${where}: names the shared folder outside the repository`);
      return;
    }
    if (/\bissues? #?\d+\b/i.test(line)) {
      problems.push(`${where}: points at an issue number`);
      return;
    }
    for (const match of line.matchAll(/(?:\.\.\/)+[\w.-]*/g)) {
      const resolved = path.relative(root, path.resolve(root, path.dirname(file), match[0]));
      if (resolved.startsWith("..")) problems.push(`${where}: '${match[0]}' points above the repository root`);
    }
  });
}
if (problems.length) {
  console.error(`${problems.length} reference(s) outside the repository:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`self-contained: ${files.length} tracked files refer to nothing outside the repository`);
