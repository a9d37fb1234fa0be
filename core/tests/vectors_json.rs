//! The JSON layer against the shared vectors: bytes a vector calls "not JSON"
//! (`expect.error == "json"`) must be rejected by `json::parse` with its default
//! limits, and every other vector's bytes must be accepted (they fail, if at all,
//! at the envelope or protocol level, above this layer).

#[path = "support/vectors.rs"]
mod vectors;

use mrtr_core::json;

#[test]
fn json_layer_agrees_with_every_shared_vector() {
    let all = vectors::load_all(&vectors::default_dir()).expect("vectors load");
    assert!(all.len() >= 100, "only {} vectors found", all.len());
    let mut disagree = std::vec::Vec::new();
    for v in &all {
        let parsed = json::parse(&v.message);
        if parsed.is_err() != v.expects_json_error() {
            disagree.push(format!(
                "{}: expect {} {:?}, json::parse gave {:?}",
                v.name,
                v.outcome,
                v.error,
                parsed.map(|x| x.kind())
            ));
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

#[test]
fn every_json_group_vector_expects_a_json_error() {
    let all = vectors::load_all(&vectors::default_dir()).expect("vectors load");
    for v in all.iter().filter(|v| v.name.starts_with("json/")) {
        assert!(v.expects_json_error(), "{} is in group json", v.name);
    }
}
