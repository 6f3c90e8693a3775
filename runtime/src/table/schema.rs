//! The JSON Schema of the table format, generated from the serde types so it
//! can never drift from them. `book/src/table-format.schema.json` is a copy
//! kept fresh by a test (`STPC_BLESS=1` rewrites it).

use super::Table;

/// The JSON Schema (draft-07) of [`Table`].
#[must_use]
pub fn json_schema() -> serde_json::Value {
    let schema = schemars::schema_for!(Table);
    serde_json::to_value(schema).unwrap_or(serde_json::Value::Null)
}
