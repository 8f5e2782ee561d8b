//! The core's modules import one another without a cycle: no two modules
//! name each other, directly or around a circle. What two modules both need
//! lives in a leaf of its own (`bounds`, `ed25519`, `response`), so that
//! each module can be read knowing only those below it.
//!
//! A module is a file of `src/` or a folder of `src/` (its files are one
//! module); it depends on every module its code names by `crate::…`,
//! comments and its unit tests (`#[cfg(test)] mod tests`) left out. The
//! crate's root (`lib.rs`) only re-exports, and is no module here.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The modules a file's code names (`crate::name`), in its text before its
/// unit tests, comment lines left out.
fn named_modules(text: &str) -> BTreeSet<String> {
    let code = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |at| &text[..at]);
    let mut named = BTreeSet::new();
    for line in code.lines() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `$crate::` (a macro's own crate) and `x402_verdict_crate::` are no module paths.
            if !matches!(before, Some(c) if c == '$' || c == '_' || c.is_ascii_alphanumeric()) {
                named.insert(name);
            }
            rest = after;
        }
    }
    named
}

/// Each module of `src` with the modules its code names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let files = if path.is_dir() {
            fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                .collect()
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            vec![path]
        } else {
            continue;
        };
        let named = graph.entry(name.clone()).or_default();
        for file in files {
            named.extend(named_modules(&fs::read_to_string(file).unwrap()));
        }
        named.remove(&name);
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for named in graph.values_mut() {
        named.retain(|m| modules.contains(m));
    }
    graph
}

/// A cycle of `graph` (its modules in order, the first repeated at the
/// end), if it has one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut cycle = path[at..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in &graph[module] {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_core_s_modules_import_one_another_without_a_cycle() {
    let graph = graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(graph.len() > 20, "{graph:?}");
    assert!(graph["evaluate"].contains("signing"), "{graph:?}");
    if let Some(cycle) = cycle(&graph) {
        panic!(
            "the core's modules import one another around a circle: {}",
            cycle.join(" -> ")
        );
    }
}

#[test]
fn the_check_finds_a_cycle() {
    let code = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("use crate::{n}::X;\n"))
            .collect::<String>()
    };
    let graph_of = |edges: &[(&str, &[&str])]| {
        edges
            .iter()
            .map(|(m, names)| (m.to_string(), named_modules(&code(names))))
            .collect::<BTreeMap<_, _>>()
    };
    let circle = graph_of(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])]);
    assert_eq!(cycle(&circle).unwrap(), ["a", "b", "c", "a"]);
    let tree = graph_of(&[("a", &["b", "c"]), ("b", &["c"]), ("c", &[])]);
    assert_eq!(cycle(&tree), None);
    assert!(named_modules("// use crate::a;\n$crate::writing::x").is_empty());
    assert!(named_modules("#[cfg(test)]\nmod tests {\n use crate::a;\n}").is_empty());
}
