//! A small JSON Schema checker for the subset credence's own schemas use: `type`, `enum`,
//! `const`, `properties`, `required`, `additionalProperties`, `items`, `minimum`, `anyOf` and local
//! `$ref`s (`#/$defs/NAME`). It backs `validate` (run.json) and the schema-drift tests.

use serde_json::Value;

/// Checks `value` against `schema`; returns one message per violation, each with its JSON path.
pub fn check(schema: &Value, value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    check_at(schema, schema, value, "$", &mut out);
    out
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        _ => false,
    }
}

fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let name = reference.strip_prefix("#/$defs/")?;
    root.get("$defs")?.get(name)
}

fn check_at(root: &Value, schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    // One of several shapes (a `$ref` or null): the value must match some branch.
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        let fits = |b: &Value| {
            let mut found = Vec::new();
            check_at(root, b, v, path, &mut found);
            found.is_empty()
        };
        if !branches.iter().any(fits) {
            out.push(format!("{path}: {} matches none of the anyOf branches", short(v)));
        }
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        match resolve(root, r) {
            Some(s) => check_at(root, s, v, path, out),
            None => out.push(format!("{path}: schema reference {r} does not resolve")),
        }
    }
    if let Some(t) = schema.get("type") {
        let ok = match t {
            Value::String(s) => type_matches(s, v),
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(|s| type_matches(s, v)),
            _ => true,
        };
        if !ok {
            out.push(format!("{path}: expected type {t}, found {}", short(v)));
            return;
        }
    }
    if let Some(c) = schema.get("const")
        && c != v
    {
        out.push(format!("{path}: expected {c}, found {}", short(v)));
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array)
        && !options.contains(v)
    {
        out.push(format!("{path}: {} is not one of {}", short(v), Value::Array(options.clone())));
    }
    if let (Some(min), Some(x)) = (schema.get("minimum").and_then(Value::as_f64), v.as_f64())
        && x < min
    {
        out.push(format!("{path}: {x} is below the minimum {min}"));
    }
    if let Value::Object(map) = v {
        let props = schema.get("properties").and_then(Value::as_object);
        if let Some(required) = schema.get("required").and_then(Value::as_array) {
            for key in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(key) {
                    out.push(format!("{path}: missing required key {key:?}"));
                }
            }
        }
        for (key, child) in map {
            let child_path = format!("{path}.{key}");
            match props.and_then(|p| p.get(key)) {
                Some(s) => check_at(root, s, child, &child_path, out),
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => out.push(format!("{child_path}: key is not in the schema")),
                    Some(s @ Value::Object(_)) => check_at(root, s, child, &child_path, out),
                    _ => {}
                },
            }
        }
    }
    if let (Value::Array(items), Some(item_schema)) = (v, schema.get("items")) {
        for (i, item) in items.iter().enumerate() {
            check_at(root, item_schema, item, &format!("{path}[{i}]"), out);
        }
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 { format!("{}...", &s[..s.floor_char_boundary(57)]) } else { s }
}

/// Every property path a schema declares (through `$ref`s), e.g. `$.clock.tables`. Used to
/// check that a fully populated value exercises the whole schema.
pub fn declared_paths(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect_paths(schema, schema, "$", &mut out, 0);
    out.sort();
    out.dedup();
    out
}

fn collect_paths(root: &Value, schema: &Value, path: &str, out: &mut Vec<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    if let Some(s) = schema.get("$ref").and_then(Value::as_str).and_then(|r| resolve(root, r)) {
        collect_paths(root, s, path, out, depth + 1);
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, s) in props {
            let p = format!("{path}.{k}");
            out.push(p.clone());
            collect_paths(root, s, &p, out, depth + 1);
        }
    }
    if let Some(items) = schema.get("items") {
        collect_paths(root, items, &format!("{path}[]"), out, depth + 1);
    }
    for branch in schema.get("anyOf").and_then(Value::as_array).into_iter().flatten() {
        collect_paths(root, branch, path, out, depth + 1);
    }
}

/// Every path present in a value, in the same notation as `declared_paths` (array items as `[]`,
/// keys of free maps included only when the schema lists them).
pub fn present_paths(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(value, "$", &mut out);
    out.sort();
    out.dedup();
    out
}

fn walk(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let p = format!("{path}.{k}");
                out.push(p.clone());
                walk(child, &p, out);
            }
        }
        Value::Array(items) => {
            for item in items {
                walk(item, &format!("{path}[]"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_type_enum_required_and_extra_keys() {
        let schema = json!({
            "type": "object", "additionalProperties": false, "required": ["a", "b"],
            "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"enum": ["x", "y"]},
                           "c": {"$ref": "#/$defs/s"}},
            "$defs": {"s": {"type": ["string", "null"]}}
        });
        assert!(check(&schema, &json!({"a": 1, "b": "x", "c": null})).is_empty());
        let errors = check(&schema, &json!({"a": -1, "b": "z", "c": 3, "d": 0}));
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(check(&schema, &json!({"a": 1}))[0].contains("missing required key \"b\""));
    }

    #[test]
    fn any_of_takes_a_value_that_fits_one_branch() {
        let schema = json!({"properties": {"e": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/o"}]}},
                            "$defs": {"o": {"type": "object", "required": ["v"]}}});
        assert!(check(&schema, &json!({"e": null})).is_empty());
        assert!(check(&schema, &json!({"e": {"v": 1}})).is_empty());
        assert!(check(&schema, &json!({"e": {"w": 1}}))[0].contains("matches none of the anyOf branches"));
    }

    #[test]
    fn lists_declared_paths_through_refs() {
        let schema = json!({"properties": {"a": {"$ref": "#/$defs/o"}}, "$defs": {"o": {"properties": {"v": {}}}}});
        assert_eq!(declared_paths(&schema), vec!["$.a", "$.a.v"]);
    }
}
