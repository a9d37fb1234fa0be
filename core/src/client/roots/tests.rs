use super::*;
use std::string::String;

fn uri(path: &str) -> Result<String, PathError> {
    let mut buf = [0u8; 512];
    path_to_file_uri(path, &mut buf).map(String::from)
}

#[test]
fn accepts_plain_file_uris() {
    for ok in [
        "file:///home/user/projects/myproject",
        "file:///",
        "file:///home/user/",
        "file://localhost/etc",
        "file://server/share/dir",
        "file:///C:/Users/me",
        "file:///a%20b/caf%C3%A9/%E4%B8%96",
        "file:///x;y/a+b/@at/!$&'()*,=~",
        "file:///.hidden/..dots/...",
    ] {
        assert_eq!(check_root_uri(ok), Ok(()), "{ok}");
    }
}

#[test]
fn refuses_what_reads_two_ways() {
    use RootUriError::*;
    for (bad, e) in [
        ("", NotFileUri),
        ("https://example.com/", NotFileUri),
        ("FILE:///home", NotFileUri),
        ("file:/home", NotFileUri),
        ("/home/user", NotFileUri),
        ("file://", NoPath),
        ("file://host", NoPath),
        ("file://host:80/x", BadHost { offset: 11 }),
        ("file://u@host/x", BadHost { offset: 8 }),
        ("file:///a b", MustBeEncoded { offset: 9 }),
        ("file:///café", MustBeEncoded { offset: 11 }),
        ("file:///a\\b", MustBeEncoded { offset: 9 }),
        ("file:///a\"b", MustBeEncoded { offset: 9 }),
        ("file:///a\nb", MustBeEncoded { offset: 9 }),
        ("file:///a?x", QueryOrFragment { offset: 9 }),
        ("file:///a#x", QueryOrFragment { offset: 9 }),
        ("file:///a%2", BadPercentEncoding { offset: 9 }),
        ("file:///a%g0", BadPercentEncoding { offset: 9 }),
        ("file:///a%00b", EncodedNul { offset: 9 }),
        ("file:///a%2fb", EncodedSlash { offset: 9 }),
        ("file:///a%2F..", EncodedSlash { offset: 9 }),
        ("file:///%FF", NotUtf8),
        ("file:///%C3", NotUtf8),
        ("file:///%C3x", NotUtf8),
        ("file:///%ED%A0%80", NotUtf8),
        ("file:///%C0%AF", NotUtf8),
        ("file:///home/../etc", DotSegment),
        ("file:///home/./x", DotSegment),
        ("file:///home/%2e%2E/etc", DotSegment),
        ("file:///home/.%2e", DotSegment),
        ("file:///home/..", DotSegment),
        ("file:////server/share", EmptySegment),
        ("file:///a//b", EmptySegment),
    ] {
        assert_eq!(check_root_uri(bad), Err(e), "{bad:?}");
    }
}

/// `text` as a JSON string token: minimal escapes, or every UTF-16 unit
/// as `\uXXXX`.
fn json_token(text: &str, all_escaped: bool) -> std::vec::Vec<u8> {
    let mut out = std::vec![0u8; 16 * text.len() + 8];
    let n = if all_escaped {
        let mut t = String::from("\"");
        for unit in text.encode_utf16() {
            t.push_str(&std::format!("\\u{unit:04x}"));
        }
        t.push('"');
        out[..t.len()].copy_from_slice(t.as_bytes());
        t.len()
    } else {
        let mut w = Writer::new(&mut out);
        w.str(text);
        w.finish().unwrap()
    };
    out.truncate(n);
    out
}

fn check_json(token: &[u8]) -> Result<(), RootUriError> {
    let v = crate::json::parse(token).unwrap();
    check_root_uri_json(&v.as_str().unwrap())
}

/// The JSON form is checked decoded: whatever the escapes, the verdict
/// (and the offset) is the plain text's.
#[test]
fn a_json_uri_gets_the_verdict_of_its_decoded_text() {
    for uri in [
        "file:///home/user/projects/myproject",
        "file:///a%20b/caf%C3%A9/%E4%B8%96",
        "file:///.hidden/..dots/...",
        "file://host:80/x",
        "file:///café",
        "file:///a\\b",
        "file:///a\"b",
        "file:///a\nb",
        "file:///a%2",
        "file:///%C3x",
        "file:///home/../etc",
        "file:///home/.%2e",
        "file:///a//b",
        "file://host",
        "https://example.com/",
    ] {
        let want = check_root_uri(uri);
        assert_eq!(check_json(&json_token(uri, false)), want, "{uri:?}");
        assert_eq!(check_json(&json_token(uri, true)), want, "{uri:?} escaped");
    }
}

#[test]
fn writes_a_list_roots_result_of_checked_roots() {
    let roots = [
        Root {
            uri: "file:///home/user/repos/frontend",
            name: Some("Frontend \"Repository\""),
        },
        Root {
            uri: "file:///home/user/repos/backend",
            name: None,
        },
    ];
    let expected = br#"{"roots":[{"uri":"file:///home/user/repos/frontend","name":"Frontend \"Repository\""},{"uri":"file:///home/user/repos/backend"}]}"#;
    let mut buf = [0u8; 256];
    let n = write_roots_into(&mut buf, &roots).unwrap();
    assert_eq!(&buf[..n], expected);
    let mut short = [0u8; 20];
    assert_eq!(
        write_roots_into(&mut short, &roots),
        Err(RootsError::BufferTooSmall {
            needed: expected.len()
        })
    );
    let mut buf = [0u8; 16];
    assert_eq!(write_roots_into(&mut buf, &[]), Ok(12));
    assert_eq!(&buf[..12], br#"{"roots":[]}"#);
}

#[test]
fn a_bad_root_writes_nothing_and_names_its_index() {
    let roots = [
        Root {
            uri: "file:///ok",
            name: None,
        },
        Root {
            uri: "https://example.com/",
            name: None,
        },
    ];
    let mut buf = [0u8; 128];
    let mut w = Writer::new(&mut buf);
    assert_eq!(
        write_roots(&mut w, &roots),
        Err(RootsError::InvalidRoot {
            index: 1,
            error: RootUriError::NotFileUri
        })
    );
    assert!(w.is_empty());
}

#[test]
fn path_to_uri_encodes_everything_but_unreserved_and_slash() {
    assert_eq!(
        uri("/home/user/my-project_1.0~x").unwrap(),
        "file:///home/user/my-project_1.0~x"
    );
    assert_eq!(uri("/").unwrap(), "file:///");
    assert_eq!(uri("/tmp/dir/").unwrap(), "file:///tmp/dir/");
    assert_eq!(uri("/a b/c%d").unwrap(), "file:///a%20b/c%25d");
    assert_eq!(
        uri("/Ünïcode/世界").unwrap(),
        "file:///%C3%9Cn%C3%AFcode/%E4%B8%96%E7%95%8C"
    );
    assert_eq!(
        uri("/q?#[]@:;+=&").unwrap(),
        "file:///q%3F%23%5B%5D%40%3A%3B%2B%3D%26"
    );
    assert_eq!(uri("/line\nbreak").unwrap(), "file:///line%0Abreak");
    assert_eq!(uri("/.hidden/..x").unwrap(), "file:///.hidden/..x");
}

#[test]
fn path_to_uri_refuses_relative_and_ambiguous_paths() {
    assert_eq!(uri(""), Err(PathError::NotAbsolute));
    assert_eq!(uri("home/user"), Err(PathError::NotAbsolute));
    assert_eq!(uri("C:\\Users"), Err(PathError::NotAbsolute));
    assert_eq!(uri("/a\0b"), Err(PathError::Nul));
    assert_eq!(uri("/a/../b"), Err(PathError::DotSegment));
    assert_eq!(uri("/a/."), Err(PathError::DotSegment));
    assert_eq!(uri("//server"), Err(PathError::EmptySegment));
    assert_eq!(uri("/a//b"), Err(PathError::EmptySegment));
}

#[test]
fn path_to_uri_reports_the_exact_size() {
    let mut buf = [0u8; 12];
    assert_eq!(
        path_to_file_uri("/a b", &mut buf),
        Err(PathError::BufferTooSmall { needed: 13 })
    );
    let mut buf = [0u8; 13];
    assert_eq!(path_to_file_uri("/a b", &mut buf), Ok("file:///a%20b"));
}

mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn decode(path: &str) -> std::vec::Vec<u8> {
        let b = path.as_bytes();
        let mut out = std::vec::Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                out.push(u8::from_str_radix(&path[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(b[i]);
                i += 1;
            }
        }
        out
    }

    proptest! {
        #[test]
        fn check_never_panics(s in "\\PC{0,60}") {
            let _ = check_root_uri(&s);
            let _ = check_root_uri(&std::format!("file:///{s}"));
        }

        #[test]
        fn escapes_never_change_the_verdict(s in "\\PC{0,40}") {
            let uri = std::format!("file:///{s}");
            let want = check_root_uri(&uri);
            prop_assert_eq!(check_json(&json_token(&uri, false)), want);
            prop_assert_eq!(check_json(&json_token(&uri, true)), want);
        }

        #[test]
        fn path_uris_pass_the_check_and_decode_back(segs in prop::collection::vec("[^/\u{0}]{1,12}", 0..5), slash in any::<bool>()) {
            let mut path = String::new();
            for s in &segs {
                path.push('/');
                path.push_str(s);
            }
            if path.is_empty() || slash {
                path.push('/');
            }
            let mut buf = [0u8; 1024];
            match path_to_file_uri(&path, &mut buf) {
                Ok(u) => {
                    prop_assert_eq!(check_root_uri(u), Ok(()));
                    prop_assert_eq!(decode(&u["file://".len()..]), path.as_bytes());
                }
                Err(e) => prop_assert!(
                    segs.iter().any(|s| s == "." || s == ".."),
                    "{path:?}: {e:?}"
                ),
            }
        }
    }
}
