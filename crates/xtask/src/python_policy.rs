//! `_policy.py`: the Python package's `PolicyName`, the `Literal` of the
//! guard's policies a `str` may name, from the core's policies (the
//! TypeScript `PolicyName` is `types`'s), so that no name is written by hand.

use x402_verdict_core::guard::Policy;

/// The module.
pub fn module() -> String {
    let names: Vec<String> = Policy::ALL
        .into_iter()
        .filter(|policy| *policy != Policy::AgentFunction)
        .map(|policy| format!("{:?}", policy.as_str()))
        .collect();
    format!(
        "# Written by `cargo xtask generate python-policy` (the core's policy names): do not edit.\n\
         \"\"\"The guard's policies a ``str`` may name (a callable is the agent's own).\"\"\"\n\
         \n\
         from typing import Literal\n\
         \n\
         PolicyName = Literal[{}]\n",
        names.join(", ")
    )
}
