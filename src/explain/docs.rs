//! The long texts of `explain`, one arm per [`Code`]. The match is
//! exhaustive, so every code of `codes::TABLE` has an explanation.
//! Sources: `verifier-rules.md` §1–§8, §10, §12 and `current-profile.md`
//! §2, §5–§7, §13 (the section of each code is its `spec_ref`).
//!
//! Examples are one line each, prefixed with where the snippet sits
//! (`index:`, `definition:`, `desiredSchema.properties.x =`, a file, …).

use super::Explanation;
use crate::codes::Code;

const fn e(
    checks: &'static str,
    why: &'static str,
    failing: &'static str,
    passing: &'static str,
) -> Explanation {
    Explanation {
        checks,
        why,
        failing,
        passing,
    }
}

const FS_WHY: &str = "a package is inert data copied between machines; anything that is not a plain, non-executable, well-named regular file could run code, leak host files or behave differently on another file system.";

/// The explanation of `code`.
pub(super) fn explanation(code: Code) -> Explanation {
    match code {
        // FD0xx: package directory, file system and strict parse
        Code::RootNotDirectory => e(
            "The path given to verify must lstat as a real directory: not missing, not a regular file, not a symlink to a directory.",
            "Following a link would verify a directory other than the one named, and the held root handle is what keeps later reads inside the package.",
            "verify pkg-link   (pkg-link -> packages/store, a symlink)",
            "verify packages/store   (a real directory)",
        ),
        Code::RootOpen => e(
            "The root (and every directory below it) is opened O_RDONLY|O_DIRECTORY|O_NOFOLLOW and stat-ed; the opened handle must be the same dev/inode with the same mode, size and mtime as the lstat result.",
            "Every later read is relative to this handle; a root that cannot be opened or inspected cannot be verified safely.",
            "verify store   (store/ is a directory that cannot be opened or listed: EACCES, EIO, or swapped between lstat and open)",
            "verify store   (store/ is a readable directory opened and stat-ed without error)",
        ),
        Code::RootChanged => e(
            "The root fence is re-checked after the inventory and at the end: a fresh lstat and the held handle must still show the same directory with unchanged mode, size and mtime.",
            "A package that changes while it is verified is not the package that was verified (time-of-check/time-of-use).",
            "a file is created in store/ while `verify store` runs (the root mtime changes)",
            "store/ is an immutable copy that nothing writes during `verify store`",
        ),
        Code::SymlinkEntry => e(
            "No entry below the root may be a symbolic link (file or directory); directories are walked, never followed.",
            "A link can point outside the package (/etc/passwd) or change target after verification; packages must be self-contained bytes.",
            "store/alias.json -> definition.json   (a symlink)",
            "store/alias.json   (a regular copy of the file, listed in the index)",
        ),
        Code::SpecialFile => e(
            "Every entry that is not a directory must be a regular file: no FIFO, socket or device.",
            "Opening a FIFO or device blocks or reads unbounded data; such entries cannot be copied or digested as data.",
            "store/named-pipe.txt   (created with mkfifo)",
            "store/notes.txt   (a regular file listed as text/plain)",
        ),
        Code::ExecutableMode => e(
            "No file may have any execute bit (mode & 0o111 must be 0).",
            FS_WHY,
            "store/definition.json   (mode 0755)",
            "store/definition.json   (mode 0644)",
        ),
        Code::ExecutableExtension => e(
            "No file on disk may have an executable-code extension (the last `.` of the file name, lower-cased, in the 45-entry list: .js .py .sh .exe .wasm .go .rs .tf .html …).",
            FS_WHY,
            "store/payload.js",
            "store/payload.json   (listed as application/json)",
        ),
        Code::InvalidEntryPath => e(
            "Every file's path relative to the root must pass the package path grammar: 1..240 bytes, no backslash, not absolute, no `:`, already clean, no empty, `.` or `..` segment.",
            "Names that mean different things on different systems (`C:x`, `a\\b`, `..`) can escape the package or collide when unpacked elsewhere.",
            "store/a:b.txt   (\"volume or URI-like paths are forbidden\")",
            "store/a-b.txt",
        ),
        Code::MissingIndex => e(
            "package-index.json must exist directly in the package root.",
            "The index is the signed subject that lists, sizes and digests every payload; without it nothing in the directory is bound to anything.",
            "store/definition.json, store/fixtures/desired.json   (no store/package-index.json)",
            "store/package-index.json   (listing definition.json and fixtures/desired.json)",
        ),
        Code::UnreadableIndex => e(
            "package-index.json is read with the bounded, no-follow reader: at most 4 MiB (4194304 bytes), unchanged while it is read.",
            "An unbounded read of an attacker's file exhausts memory; a file that changes while it is read has no single digest.",
            "store/package-index.json   (4194305 bytes: \"file is 4194305 bytes; maximum is 4194304\")",
            "store/package-index.json   (a few hundred bytes)",
        ),
        Code::InvalidUtf8 => e(
            "A JSON input must be valid UTF-8 as a whole, without a byte-order mark.",
            "Decoders repair or reject bad bytes differently, so two verifiers would digest or read different text.",
            r#"package-index.json bytes: {"kind":"Form<0xFF>Package"}"#,
            r#"package-index.json bytes: {"kind":"FormPackage"}"#,
        ),
        Code::InvalidIJson => e(
            "JSON is parsed with the strict I-JSON grammar: no duplicate member names (also when spelled with escapes), no lone surrogates, no `-0` in any spelling, finite numbers, nesting at most 256, only whitespace after the value.",
            "Lenient parsers disagree on duplicates and edge numbers, so the same bytes could mean one thing to the verifier and another to a host.",
            r#"package-index.json: {"kind":"FormPackage","kind":"Other"}"#,
            r#"package-index.json: {"kind":"FormPackage"}"#,
        ),
        Code::ScalarTopLevel => e(
            "A JSON document that is canonicalized (the index, the definition, every JSON payload) must have an object or an array at the top level.",
            "The RFC 8785 transform of the reference refuses a top-level scalar, so no digest could be agreed for it.",
            "fixtures/desired.json: 5",
            r#"fixtures/desired.json: {"replicas":5}"#,
        ),
        Code::UnreadablePayload => e(
            "Each listed payload is opened relative to the held root without following links and read within its limit (definition 4 MiB, other JSON 16 MiB, else 64 MiB); it must stay the same regular, non-executable file (dev/inode, mode, size, mtime) from the inventory to the end of the read.",
            "A file swapped, grown or replaced between inventory and read would be verified as one thing and used as another.",
            "definition.json is 4194305 bytes on disk (\"file is 4194305 bytes; maximum is 4194304\")",
            "definition.json is 722 bytes on disk and listed with size 722",
        ),
        Code::PayloadSizeMismatch => e(
            "The number of bytes read from a payload must equal its listed `size`.",
            "The index is what gets signed; a payload whose length differs is not the payload that was signed.",
            r#"index files[1]: {"path":"fixtures/desired.json","size":20,…}   (the file has 19 bytes)"#,
            r#"index files[1]: {"path":"fixtures/desired.json","size":19,…}   (the file has 19 bytes)"#,
        ),
        Code::PayloadDigestMismatch => e(
            "`sha256:` + lowercase hex of a payload's raw bytes must equal its listed `digest`.",
            "The digest binds every payload byte to the signed index; without the match anyone could change a payload after signing.",
            r#"index files[1].digest: "sha256:0000000000000000000000000000000000000000000000000000000000000000""#,
            r#"index files[1].digest: "sha256:9579cf52285b23b618b615d704b19d04ff591ae513f6ae34ef37e2b9a067cb12"   (the SHA-256 of the file bytes)"#,
        ),
        Code::InvalidTextPayload => e(
            "A text/markdown or text/plain payload must be valid UTF-8 and contain no NUL byte.",
            "Text payloads are shown to people and tools as text; binary content hidden behind a text media type is not reviewable data.",
            "README.md bytes: # store<0xFF>",
            "README.md bytes: # store",
        ),
        Code::UnlistedFile => e(
            "Every regular file in the package tree (except the root package-index.json) must be listed in `files`.",
            "An unlisted file is not covered by any digest, so it could be added or changed after signing without anyone noticing.",
            "store/extra.txt exists but no files[] entry has \"path\":\"extra.txt\"",
            r#"index files[]: {"path":"extra.txt","mediaType":"text/plain","size":1,"digest":"sha256:…"}"#,
        ),
        Code::MissingListedFile => e(
            "Every path listed in `files` must exist as a regular file in the package tree.",
            "A listed payload that is missing makes the signed index describe a package that does not exist.",
            r#"index files[]: {"path":"fixtures/desired.json",…}   (no such file on disk)"#,
            r#"index files[]: {"path":"fixtures/desired.json",…}   (store/fixtures/desired.json exists)"#,
        ),
        Code::InvalidJsonPayload => e(
            "A payload with a JSON media type (the definition, application/json, application/schema+json, any `+json`) must pass the strict I-JSON grammar and canonicalize.",
            "Fixtures and schemas are consumed by other tools; bytes that parsers read differently make their meaning ambiguous.",
            r#"fixtures/desired.json: {"name":"a","name":"b"}"#,
            r#"fixtures/desired.json: {"name":"a"}"#,
        ),

        // FD1xx: index and definition structure, identity, digests
        Code::UnsupportedIndexApiVersion => e(
            "The index `apiVersion` must be one of packages.forms.takoform.com/v1alpha1 .. v1alpha5, compared as an exact string; it selects the index schema.",
            "The profile decides every later rule; an unknown one cannot be verified against anything.",
            r#"index: {"apiVersion":"packages.forms.takoform.com/v9",…}"#,
            r#"index: {"apiVersion":"packages.forms.takoform.com/v1alpha5",…}"#,
        ),
        Code::IndexSchemaViolation => e(
            "package-index.json must satisfy its profile's published Draft 2020-12 schema: a closed object with apiVersion, kind, formRef, definitionPath, files (and packageVersion for v1alpha1 only).",
            "Extra or malformed members would be signed but ignored or read differently by hosts.",
            r#"index: {…,"packageId":"store"}   (an unknown member)"#,
            r#"index: {"apiVersion":"packages.forms.takoform.com/v1alpha1","definitionPath":"definition.json","files":[…],"formRef":{…},"kind":"FormPackage","packageVersion":"1.0.0"}"#,
        ),
        Code::IndexDecode => e(
            "Every index `size` the schema accepts must also decode as an int64: a plain integer literal, not `1.0` or `1e2` (QUIRK of the reference's typed decode).",
            "The reference verifier fails such an index after the schema passes; accepting it would make the two verifiers disagree.",
            r#"index files[1]: {…,"size":19.0}"#,
            r#"index files[1]: {…,"size":19}"#,
        ),
        Code::TooManyFiles => e(
            "The index may list at most 1024 files (the index itself is not counted).",
            "A bound on entries bounds the work and memory of verifying any package.",
            "index files: [1025 entries]",
            "index files: [3 entries]",
        ),
        Code::IndexIdentity => e(
            "After schema validation the index identity is re-checked: apiVersion must be an accepted profile and kind must be FormPackage.",
            "It guards the typed decode against an index that is not a Form Package; the schema's consts normally catch it first.",
            r#"index: {"apiVersion":"packages.forms.takoform.com/v1alpha1","kind":"FormBundle",…}"#,
            r#"index: {"apiVersion":"packages.forms.takoform.com/v1alpha1","kind":"FormPackage",…}"#,
        ),
        Code::InvalidPayloadPath => e(
            "Every files[i].path must pass the package path grammar (1..240 bytes, relative, no backslash or `:`, clean, no empty/./.. segments).",
            "A listed path that escapes the root or is spelled two ways would let the index describe files outside the package.",
            r#"index files[]: {"path":"../definition.json",…}"#,
            r#"index files[]: {"path":"definition.json",…}"#,
        ),
        Code::IndexListsItself => e(
            "No files[] entry may name package-index.json.",
            "The index is the signed subject; listing it as its own payload would need a digest of a file containing that digest.",
            r#"index files[]: {"path":"package-index.json","mediaType":"application/json",…}"#,
            r#"index files[]: {"path":"fixtures/desired.json","mediaType":"application/json",…}"#,
        ),
        Code::DuplicatePayloadPath => e(
            "No two files[] entries may have the same path (checked before the ordering rule).",
            "Two entries for one file could carry two different sizes or digests, one of which a tool might trust.",
            r#"index files: [{"path":"a.json",…},{"path":"a.json",…}]"#,
            r#"index files: [{"path":"a.json",…},{"path":"b.json",…}]"#,
        ),
        Code::UnsortedPayloadPaths => e(
            "files[] entries must be in strictly ascending byte-wise order of path (so README.md < definition.json, fixtures-b.json < fixtures/a.json).",
            "One canonical order makes the index for a given set of files unique, so equal packages have equal digests.",
            r#"index files: [{"path":"fixtures/desired.json",…},{"path":"definition.json",…}]"#,
            r#"index files: [{"path":"definition.json",…},{"path":"fixtures/desired.json",…}]"#,
        ),
        Code::NonCanonicalDigest => e(
            "Every listed digest must be exactly `sha256:` + 64 lowercase hex digits.",
            "Digests are compared as strings; an upper-case or other-algorithm spelling of the same hash would compare unequal or be unverifiable.",
            r#"index files[0].digest: "sha256:3218E1354B79…"   (upper case)"#,
            r#"index files[0].digest: "sha256:3218e1354b79…"   (64 lowercase hex)"#,
        ),
        Code::PayloadSizeOutOfRange => e(
            "Every listed size must be in 0..67108864 (64 MiB).",
            "Bounds on declared sizes bound the reads and the memory of verification.",
            r#"index files[]: {"path":"data.json","size":67108865,…}"#,
            r#"index files[]: {"path":"data.json","size":1024,…}"#,
        ),
        Code::DefinitionTooLarge => e(
            "The entry with the Form Definition media type may declare at most 4 MiB (4194304 bytes).",
            "Definitions are parsed and proven by every host; a size bound keeps that cheap and predictable.",
            r#"index files[0]: {"path":"definition.json","mediaType":"application/vnd.takoform.form-definition.v1+json","size":4194305,…}"#,
            r#"index files[0]: {"path":"definition.json","mediaType":"application/vnd.takoform.form-definition.v1+json","size":722,…}"#,
        ),
        Code::JsonPayloadTooLarge => e(
            "Any other JSON media type entry may declare at most 16 MiB (16777216 bytes).",
            "JSON payloads are parsed into memory; the bound keeps parsing predictable.",
            r#"index files[1]: {"path":"fixtures/desired.json","mediaType":"application/json","size":16777217,…}"#,
            r#"index files[1]: {"path":"fixtures/desired.json","mediaType":"application/json","size":19,…}"#,
        ),
        Code::ExecutablePayloadExtension => e(
            "No listed path may have an executable-code extension (checked before the media-type pairing).",
            "Packages are data only; a listed .js or .sh would ship code under a data media type.",
            r#"index files[]: {"path":"tool.js","mediaType":"application/json",…}"#,
            r#"index files[]: {"path":"tool.json","mediaType":"application/json",…}"#,
        ),
        Code::MediaTypeExtensionMismatch => e(
            "A listed media type must match the path's extension: JSON types need .json, text/markdown .md or .markdown, text/plain .txt (case-insensitive).",
            "Tools pick a handler by extension, hosts by media type; a mismatch makes them treat one file as two kinds of content.",
            r#"index files[]: {"path":"fixtures/desired.json","mediaType":"text/plain",…}"#,
            r#"index files[]: {"path":"fixtures/desired.json","mediaType":"application/json",…}"#,
        ),
        Code::UnsupportedMediaType => e(
            "A listed media type must be one of the closed allowlist: the Form Definition type, application/schema+json, application/json, text/markdown, text/plain.",
            "Only these types have content rules (strict JSON, UTF-8 text); anything else would be unchecked bytes.",
            r#"index files[]: {"path":"logo.png","mediaType":"image/png",…}"#,
            r#"index files[]: {"path":"README.md","mediaType":"text/markdown",…}"#,
        ),
        Code::PayloadTotalTooLarge => e(
            "The running sum of listed sizes may not exceed 256 MiB (268435456 bytes).",
            "Bounds the total bytes a verifier or host must read for one package.",
            r#"index files: five entries of {"mediaType":"text/plain","size":67108864,…}   (320 MiB)"#,
            r#"index files: four entries of {"mediaType":"text/plain","size":67108864,…}   (256 MiB)"#,
        ),
        Code::DefinitionCount => e(
            "Exactly one files[] entry carries the Form Definition media type application/vnd.takoform.form-definition.v1+json.",
            "A package is one Form; zero or two definitions leave it ambiguous which contract the package describes.",
            r#"index files: [{"path":"a.json","mediaType":"application/vnd.takoform.form-definition.v1+json",…},{"path":"b.json","mediaType":"application/vnd.takoform.form-definition.v1+json",…}]"#,
            r#"index files: [{"path":"a.json","mediaType":"application/vnd.takoform.form-definition.v1+json",…},{"path":"b.json","mediaType":"application/json",…}]"#,
        ),
        Code::DefinitionPathUnlisted => e(
            "definitionPath must name a path listed in files[].",
            "The definition is the contract the FormRef digests; it has to be one of the signed payloads.",
            r#"index: {"definitionPath":"other.json","files":[{"path":"definition.json",…}],…}"#,
            r#"index: {"definitionPath":"definition.json","files":[{"path":"definition.json",…}],…}"#,
        ),
        Code::DefinitionPathMediaType => e(
            "The entry definitionPath names must carry the Form Definition media type.",
            "Otherwise definitionPath could point at a fixture while the real definition sits elsewhere in the package.",
            r#"index: {"definitionPath":"fixtures/desired.json",…}   (listed as application/json)"#,
            r#"index: {"definitionPath":"definition.json",…}   (listed as application/vnd.takoform.form-definition.v1+json)"#,
        ),
        Code::UnsupportedDefinitionApiVersion => e(
            "The definition's own apiVersion selects its schema: forms.takoform.com/v1alpha1 or /v1alpha2 (legacy), else a namespaced group (retained-beta lane for index v1alpha4, versionless current lane otherwise); reserved groups (forms., packages., trust.forms.takoform.com) and malformed groups select nothing.",
            "A definition no schema applies to cannot be validated, so nothing about it could be trusted.",
            r#"definition: {"apiVersion":"forms/v1",…}"#,
            r#"definition: {"apiVersion":"forms.takoform.com/v1alpha1",…}"#,
        ),
        Code::DefinitionSchemaViolation => e(
            "The Form Definition must satisfy its lane's published Draft 2020-12 schema (closed object; required title, kind, definitionVersion, desiredSchema, lifecycleCapabilities, and per lane status, role or requiresHostApi).",
            "Hosts rely on the schema's shape; unknown or malformed members would be signed but read differently by each consumer.",
            r#"definition: {…,"packageId":"store"}   (an unknown member)"#,
            r#"definition: {"apiVersion":"forms.takoform.com/v1alpha1","kind":"ExampleStore","definitionVersion":"1.0.0","title":"Store","status":"standard","desiredSchema":{…},"observedSchema":{…},"lifecycleCapabilities":["create"]}"#,
        ),
        Code::DefinitionDecode => e(
            "A definition number the schema accepts as an integer must also decode as an int64: constraints[].total written as a plain integer literal (QUIRK of the reference's typed decode).",
            "The reference verifier refuses `1.0` or `1e4` there after the schema passes; accepting it would make the verdicts differ.",
            r#"definition constraints[]: {"kind":"sum","list":"/versions","member":"weight","total":100.0}"#,
            r#"definition constraints[]: {"kind":"sum","list":"/versions","member":"weight","total":100}"#,
        ),
        Code::SchemaDigestMismatch => e(
            "formRef.schemaDigest must be `sha256:` of the RFC 8785 canonical form of the definition (not its raw bytes).",
            "The FormRef is how hosts pin a Form; a digest that does not match the definition pins a different contract.",
            r#"index formRef: {…,"schemaDigest":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}"#,
            r#"index formRef: {…,"schemaDigest":"sha256:7d3ccaec178df99f28a368b8eb3f3bf2f0df55f0e13dd78a34b4be658af01a4d"}   (`form-package digest definition.json`)"#,
        ),
        Code::FormRefIdentityMismatch => e(
            "formRef.apiVersion, formRef.kind and formRef.definitionVersion must equal the definition's own members.",
            "The index would advertise one Form while shipping another.",
            r#"index formRef: {"definitionVersion":"1.0.1",…}   definition: {"definitionVersion":"1.0.0",…}"#,
            r#"index formRef: {"definitionVersion":"1.0.0",…}   definition: {"definitionVersion":"1.0.0",…}"#,
        ),
        Code::InvalidFormRef => e(
            "After the identity check the FormRef is re-validated with the schema its own apiVersion selects, including the namespaced-group guard, which is stricter than the FormRef schema pattern.",
            "A FormRef only valid by the index schema's looser pattern would name a group hosts refuse.",
            r#"index formRef (index v1alpha4): {"apiVersion":"forms.takoform.com/v1alpha3",…}   (reserved group)"#,
            r#"index formRef (index v1alpha4): {"apiVersion":"edge.forms.takoform.com/v1beta1",…}"#,
        ),
        Code::VersionedFormRef => e(
            "In the current-neutral profile (index v1alpha5) the FormRef group must be versionless: no `/vN` suffix.",
            "The current profile identifies Forms by versionless reverse-DNS group; a versioned group names a retired lane.",
            r#"index formRef (index v1alpha5): {"apiVersion":"edge.forms.takoform.com/v1",…}"#,
            r#"index formRef (index v1alpha5): {"apiVersion":"edge.forms.takoform.com",…}"#,
        ),

        // FD2xx: schema proofs
        Code::NonLocalRef => e(
            "Every member named $ref anywhere in an inline schema (even inside const, enum, default) must be a string equal to `#` or starting with `#/`.",
            "Network, file and anchor references load schemas from outside the signed package, so the proof could not see what is validated.",
            r#"desiredSchema.properties.x = {"$ref":"https://attacker.invalid/s.json"}"#,
            r##"desiredSchema.properties.x = {"$ref":"#/$defs/Name"}"##,
        ),
        Code::DynamicRef => e(
            "No member named $dynamicRef may appear anywhere in an inline schema.",
            "Dynamic resolution depends on the evaluation path, so which schema applies cannot be proven closed statically.",
            r##"desiredSchema.properties.x = {"type":"string","$dynamicRef":"#/$defs/x"}"##,
            r##"desiredSchema.properties.x = {"type":"string","$ref":"#/$defs/x"}"##,
        ),
        Code::UnresolvedRef => e(
            "A local $ref's JSON Pointer (percent-decoded, ~0/~1 unescaped) must resolve to a member or index in the same inline schema.",
            "A dangling reference fails or behaves differently in each validator instead of validating anything.",
            r##"desiredSchema: {"properties":{"x":{"$ref":"#/$defs/Missing"}},…}   (no $defs.Missing)"##,
            r##"desiredSchema: {"$defs":{"Missing":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/Missing"}},…}"##,
        ),
        Code::TrueSchema => e(
            "A subschema may not be the boolean `true` (`false` is fine: it admits nothing).",
            "`true` admits any value, including arbitrary objects, so fields nobody reviewed would pass.",
            r#"desiredSchema.properties.x = true"#,
            r#"desiredSchema.properties.x = {"type":"string"}"#,
        ),
        Code::NonSchemaValue => e(
            "Every subschema position the proof visits (properties members, items, allOf elements, …) must hold a JSON object or a boolean.",
            "Anything else is not a schema; validators would reject or ignore it, so its meaning is undefined.",
            r#"desiredSchema.properties.x = 5"#,
            r#"desiredSchema.properties.x = {"type":"integer"}"#,
        ),
        Code::PatternProperties => e(
            "patternProperties may not appear in an inline schema.",
            "Regex-keyed properties cannot be proven closed; open key sets are only allowed through the reviewed typed-map escape.",
            r#"desiredSchema.properties.x = {"type":"object","additionalProperties":false,"patternProperties":{"^a":{"type":"string"}}}"#,
            r#"desiredSchema.properties.x = {"type":"object","propertyNames":{"type":"string","pattern":"^[A-Za-z][A-Za-z0-9._-]{0,63}$","x-takoform-fieldPolicy":"portable-data-only-v1"},"additionalProperties":{"type":"string"}}"#,
        ),
        Code::LegacyDependencies => e(
            "The pre-2019 `dependencies` keyword may not appear in an inline schema.",
            "Draft 2020-12 validators ignore it silently, so the constraint the author meant would not be enforced.",
            r#"desiredSchema.properties.x = {"type":"object","additionalProperties":false,"dependencies":{"a":["b"]}}"#,
            r#"desiredSchema.properties.x = {"type":"object","additionalProperties":false,"dependentRequired":{"a":["b"]}}"#,
        ),
        Code::ContentKeyword => e(
            "contentEncoding, contentMediaType and contentSchema may not appear in an inline schema.",
            "Portable Forms never decode embedded content; such keywords would smuggle unvalidated documents inside strings.",
            r#"desiredSchema.properties.x = {"type":"string","contentEncoding":"base64"}"#,
            r#"desiredSchema.properties.x = {"type":"string","maxLength":1024}"#,
        ),
        Code::NestedDialect => e(
            "A $schema inside a proven node must be exactly https://json-schema.org/draft/2020-12/schema.",
            "Another dialect changes what keywords mean mid-document, so the 2020-12 proof would not describe the validation.",
            r#"desiredSchema.properties.x = {"$schema":"http://json-schema.org/draft-07/schema#","type":"string"}"#,
            r#"desiredSchema.properties.x = {"type":"string"}"#,
        ),
        Code::ResolutionScopeKeyword => e(
            "$id, $anchor, $dynamicAnchor, $recursiveAnchor, $recursiveRef and $vocabulary may not appear in a proven node.",
            "They change how references resolve, so the proof could not know which schema a $ref reaches.",
            r#"desiredSchema.properties.x = {"$id":"https://example.invalid/x","type":"string"}"#,
            r#"desiredSchema.properties.x = {"type":"string"}"#,
        ),
        Code::MixedObjectConst => e(
            "An object-valued const must be the only member of its schema (the exact-object-const escape).",
            "The escape is proven closed only because the literal is the whole schema; sibling keywords would re-open what it admits.",
            r#"desiredSchema.properties.x = {"const":{"tier":"fixed"},"description":"fixed settings"}"#,
            r#"desiredSchema.properties.x = {"const":{"tier":"fixed"}}"#,
        ),
        Code::MalformedSchemaKeyword => e(
            "Keywords the proof reads must have their schema shape: properties/$defs/dependentSchemas objects, required a string array, dependentRequired an object, enum and allOf/anyOf/oneOf/prefixItems non-empty arrays, $ref a string.",
            "A malformed keyword is ignored or misread by validators, so the proof could not rely on it.",
            r#"desiredSchema.properties.x = {"type":"string","allOf":[]}"#,
            r#"desiredSchema.properties.x = {"type":"string","allOf":[{"maxLength":8}]}"#,
        ),
        Code::ArrayWithoutItems => e(
            "A schema whose type includes \"array\" must declare `items` (prefixItems does not replace it).",
            "Without items, array elements are unconstrained and may be arbitrary objects.",
            r#"desiredSchema.properties.tags = {"type":"array"}"#,
            r#"desiredSchema.properties.tags = {"type":"array","items":{"type":"string"}}"#,
        ),
        Code::OpenObjectSchema => e(
            "A schema whose type includes \"object\" must set additionalProperties to false, or to a schema under the reviewed typed-map escape.",
            "An object without closed properties admits fields nobody reviewed, which can carry credentials, placement or code through a portable Form.",
            r#"desiredSchema.properties.x = {"type":"object","properties":{"a":{"type":"string"}}}"#,
            r#"desiredSchema.properties.x = {"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#,
        ),
        Code::ImpureTypedMap => e(
            "A typed map (additionalProperties is a schema) may not also declare properties, required, dependentRequired, dependentSchemas or unevaluatedProperties.",
            "The escape is reviewed only as a pure map from policy-checked keys to typed values; fixed fields mixed in escape both reviews.",
            r#"desiredSchema.properties.x = {"type":"object","properties":{"a":{"type":"string"}},"propertyNames":{…marker…},"additionalProperties":{"type":"string"}}"#,
            r#"desiredSchema.properties.x = {"type":"object","propertyNames":{…marker…},"additionalProperties":{"type":"string"}}"#,
        ),
        Code::MapKeyPolicy => e(
            "A typed map's propertyNames must be exactly {\"type\":\"string\",\"pattern\":\"^[A-Za-z][A-Za-z0-9._-]{0,63}$\",\"x-takoform-fieldPolicy\":\"portable-data-only-v1\"}: no member missing, changed or added.",
            "The marker is what lets the map's keys be bounded and name-scanned; any other key policy could admit credential-like keys.",
            r#"desiredSchema.properties.labels = {"type":"object","additionalProperties":{"type":"string"}}"#,
            r#"desiredSchema.properties.labels = {"type":"object","propertyNames":{"type":"string","pattern":"^[A-Za-z][A-Za-z0-9._-]{0,63}$","x-takoform-fieldPolicy":"portable-data-only-v1"},"additionalProperties":{"type":"string"}}"#,
        ),
        Code::ImplicitObjectKeywords => e(
            "Object keywords (properties, required, additionalProperties, propertyNames, minProperties, …) need an explicit type that includes \"object\".",
            "Without a type the keywords constrain only objects while any other object shape still passes: the intent is closed, the schema is not.",
            r#"desiredSchema.properties.x = {"minProperties":1}"#,
            r#"desiredSchema.properties.x = {"type":"object","minProperties":1,"additionalProperties":{"type":"string"},"propertyNames":{…marker…}}"#,
        ),
        Code::OpenSchema => e(
            "After combining type, const, enum, $ref, allOf, anyOf and oneOf, every node must be unable to admit an object, or admit only closed objects.",
            "A node that can admit an arbitrary object lets unreviewed fields through, whatever else the schema says.",
            r#"desiredSchema.properties.x = {}"#,
            r#"desiredSchema.properties.x = {"type":"string"}"#,
        ),
        Code::CyclicRef => e(
            "$ref chains may not loop; any $ref to `#` is always a cycle.",
            "Recursive schemas admit unbounded nesting and make the proof and validation work unbounded.",
            r##"desiredSchema.$defs = {"Loop":{"$ref":"#/$defs/Loop"}}"##,
            r##"desiredSchema.$defs = {"Leaf":{"type":"string"},"Node":{"$ref":"#/$defs/Leaf"}}"##,
        ),
        Code::ProofDepthExceeded => e(
            "Every path from the schema root, through children and $ref hops (and exact-const literals), may be at most 64 edges long.",
            "A depth bound keeps the proof and validation stack bounded for any package.",
            r#"desiredSchema: 65 nested {"type":"object","additionalProperties":false,"properties":{"n":…}}"#,
            r#"desiredSchema: 3 nested {"type":"object","additionalProperties":false,"properties":{"n":…}}"#,
        ),
        Code::ProofBudgetExceeded => e(
            "The proof may spend at most 4096 operations: one per first proof of a node, one per $ref occurrence, one per node of an exact-const literal.",
            "A budget keeps verification cheap for every host, whatever the shape of the schema.",
            r##"desiredSchema.properties.x = {"allOf":[2049 × {"$ref":"#/$defs/Closed"}]}"##,
            r##"desiredSchema.properties.x = {"allOf":[{"$ref":"#/$defs/Closed"}]}"##,
        ),
        Code::StructuralWorkExceeded => e(
            "The worst-case validation work of an inline schema (1 per node plus its children, a $ref target counted again at every occurrence) may not exceed 16384.",
            "Shared $ref chains double work per level; without the bound a small schema could make every validation exponentially slow.",
            r##"desiredSchema: Node0 a closed object, NodeK = {"allOf":[{"$ref":"#/$defs/NodeK-1"},{"$ref":"#/%24defs/NodeK-1"}]}, properties.config = {"$ref":"#/$defs/Node12"}"##,
            r##"desiredSchema: the same chain with properties.config = {"$ref":"#/$defs/Node10"}   (work 6145)"##,
        ),
        Code::InlineSchemaCompile => e(
            "Each inline schema must compile with the Draft 2020-12 engine: valid against the meta-schema, and every pattern compilable by RE2 (no lookaround or backreferences).",
            "A schema the reference engine cannot compile makes the package unusable on every host that validates with it.",
            r#"desiredSchema.properties.x = {"type":"string","minLength":-1}"#,
            r#"desiredSchema.properties.x = {"type":"string","minLength":1}"#,
        ),
        Code::UnsatisfiableAllOf => e(
            "Warns when allOf combines closed objects and one branch requires a property another branch does not declare: no object can satisfy both.",
            "Such a schema verifies but rejects every object, so the Form could never be created; usually a closed branch should have been an open mix-in.",
            r#"desiredSchema.properties.x = {"allOf":[{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","additionalProperties":false,"properties":{"b":{"type":"string"}}}]}"#,
            r#"desiredSchema.properties.x = {"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}"#,
        ),

        // FD3xx: forbidden-field vocabulary
        Code::ForbiddenPayloadField => e(
            "Every object key at every depth of a JSON payload is checked against the forbidden-name policy (credentials, operator placement, commercial terms, executable code), after normalisation and tokenisation; only the reviewed x-takoform-* annotations and reviewed top-level desired fields are exempt.",
            "Portable packages must never carry secrets, infrastructure placement, prices or code; a key like password or apiKey shows the data is not portable.",
            r#"extra.json: {"password":"hunter2"}"#,
            r#"extra.json: {"displayName":"hunter"}"#,
        ),
        Code::ForbiddenDefinitionField => e(
            "Every key of the Form Definition (location $) is checked against the forbidden-name policy; in the current profile this runs inside definition validation.",
            "The definition describes portable data; a forbidden key anywhere in it (even in an annotation or default) signals non-portable content.",
            r#"definition desiredSchema: {…,"x-note":{"password":"x"}}"#,
            r#"definition desiredSchema: {…,"x-note":{"hint":"x"}}"#,
        ),
        Code::ForbiddenSchemaName => e(
            "Inside the closed-object proof, property names, required strings and dependentRequired keys and strings must pass the forbidden-name policy (reviewed top-level desired fields command, concurrencyTarget, target excepted).",
            "A schema that declares a field named secret or region makes every conforming document carry it.",
            r#"desiredSchema.properties = {"password":{"type":"string"}}"#,
            r#"desiredSchema.properties = {"displayName":{"type":"string"}}"#,
        ),

        // FD4xx: definition rules and fixtures
        Code::FixtureCount => e(
            "conformanceFixtures and negativeConformanceFixtures may each hold at most 32 entries.",
            "Bounds the fixture validation work of every verification.",
            r#"definition: {"conformanceFixtures":[33 entries],…}"#,
            r#"definition: {"conformanceFixtures":[32 entries],…}"#,
        ),
        Code::DuplicateFixtureName => e(
            "Fixture names must be unique across both lists together.",
            "Reports and evidence refer to fixtures by name; two fixtures with one name make results ambiguous.",
            r#"definition: {"conformanceFixtures":[{"name":"basic","desiredPath":"a.json"}],"negativeConformanceFixtures":[{"name":"basic","stage":"desired","inputPath":"b.json","expectedFailure":"schema_validation_failed"}]}"#,
            r#"definition: {"conformanceFixtures":[{"name":"basic","desiredPath":"a.json"}],"negativeConformanceFixtures":[{"name":"reject-basic","stage":"desired","inputPath":"b.json","expectedFailure":"schema_validation_failed"}]}"#,
        ),
        Code::InvalidFixturePath => e(
            "Every fixture path (desiredPath, observedPath, outputPath, inputPath) must pass the package path grammar.",
            "A fixture path outside the grammar cannot name a listed payload and could point outside the package.",
            r#"definition conformanceFixtures[]: {"name":"basic","desiredPath":"../desired.json"}"#,
            r#"definition conformanceFixtures[]: {"name":"basic","desiredPath":"fixtures/desired.json"}"#,
        ),
        Code::FixtureUnlisted => e(
            "Every path a positive or negative fixture names must be listed in the index.",
            "An unlisted fixture is not covered by any digest, so the evidence it gives is not bound to the package.",
            r#"definition conformanceFixtures[]: {"name":"other","desiredPath":"fixtures/missing.json"}   (not in files[])"#,
            r#"definition conformanceFixtures[]: {"name":"basic","desiredPath":"fixtures/desired.json"}   (listed)"#,
        ),
        Code::FixtureMediaType => e(
            "A fixture payload must be listed exactly as application/json (not application/schema+json, not the definition type).",
            "Fixtures are instance documents; other JSON types are schemas or definitions and are processed differently.",
            r#"index files[]: {"path":"fixtures/desired.json","mediaType":"application/schema+json",…}"#,
            r#"index files[]: {"path":"fixtures/desired.json","mediaType":"application/json",…}"#,
        ),
        Code::FixtureStageWithoutSchema => e(
            "A positive fixture with observedPath or outputPath needs the definition to have observedSchema or outputSchema respectively.",
            "A fixture for a stage with no schema validates nothing and would give false evidence.",
            r#"definition: {"conformanceFixtures":[{"name":"out","desiredPath":"d.json","outputPath":"o.json"}],…}   (no outputSchema)"#,
            r#"definition: {"conformanceFixtures":[{"name":"out","desiredPath":"d.json","outputPath":"o.json"}],"outputSchema":{…},…}"#,
        ),
        Code::NegativeStageWithoutSchema => e(
            "A negative fixture's stage (desired, observed, output) must have a schema in the definition.",
            "A negative fixture against a missing schema cannot fail for the right reason.",
            r#"definition negativeConformanceFixtures[]: {"name":"neg","stage":"output","inputPath":"n.json","expectedFailure":"schema_validation_failed"}   (no outputSchema)"#,
            r#"definition negativeConformanceFixtures[]: {"name":"neg","stage":"desired","inputPath":"n.json","expectedFailure":"schema_validation_failed"}"#,
        ),
        Code::UnsupportedNegativeStage => e(
            "A negative fixture's stage must be desired, observed or output.",
            "Only these stages have schemas a fixture can be validated against.",
            r#"definition negativeConformanceFixtures[]: {"name":"neg","stage":"import","inputPath":"n.json","expectedFailure":"schema_validation_failed"}"#,
            r#"definition negativeConformanceFixtures[]: {"name":"neg","stage":"desired","inputPath":"n.json","expectedFailure":"schema_validation_failed"}"#,
        ),
        Code::UnsupportedExpectedFailure => e(
            "A negative fixture's expectedFailure must be exactly schema_validation_failed (the schema pattern is wider).",
            "It is the only failure the package verifier can produce for a fixture; any other value claims evidence nobody checks.",
            r#"definition negativeConformanceFixtures[]: {…,"expectedFailure":"wrong_failure"}"#,
            r#"definition negativeConformanceFixtures[]: {…,"expectedFailure":"schema_validation_failed"}"#,
        ),
        Code::FixtureWorkExceeded => e(
            "Before validating a fixture, the instance-aware work estimate (schema nodes times the instance members, items, and names they apply to) may not exceed 16384.",
            "Cardinality multiplies shared-schema work; without the bound one fixture could make validation explode.",
            r##"desiredSchema.properties.list = {"type":"array","items":{"$ref":"#/$defs/Node7"}} (a 7-level doubling chain) with fixture {"list":[64 strings]}"##,
            r##"the same schema with fixture {"list":[16 strings]}"##,
        ),
        Code::FixtureSchemaViolation => e(
            "Every positive fixture must satisfy its stage schema (Draft 2020-12, formats asserted).",
            "Positive fixtures are the Form's evidence that valid documents exist; one that fails shows the schema or the fixture is wrong.",
            r#"fixtures/desired.json: {"wrong":"field"}   (desired requires name, closed)"#,
            r#"fixtures/desired.json: {"name":"example"}"#,
        ),
        Code::NegativeFixturePassed => e(
            "Every negative fixture must fail its stage schema (a schema violation or the instance work bound).",
            "A negative fixture that passes shows the schema admits a document its author meant to reject.",
            r#"negative desired fixture fixtures/negative.json: {"name":"example"}   (valid)"#,
            r#"negative desired fixture fixtures/negative.json: {"name":"example","extra":1}   (closed schema rejects it)"#,
        ),
        Code::InterfaceDocumentViolation => e(
            "A legacy interface descriptor with documentSchema must have a document (or {} when absent) that satisfies it.",
            "The descriptor's document is its declared contract; one that fails its own schema is self-contradictory.",
            r#"definition interfaces[]: {"name":"mcp.server","version":"1","documentSchema":{…"required":["title"],"properties":{"title":{"type":"string"}}…},"document":{"title":42}}"#,
            r#"definition interfaces[]: {"name":"mcp.server","version":"1","documentSchema":{…"required":["title"],"properties":{"title":{"type":"string"}}…},"document":{"title":"Server"}}"#,
        ),
        Code::DuplicateInterface => e(
            "Legacy interface descriptors must be unique by name@version (the same name at different versions is fine).",
            "Hosts look interfaces up by name and version; two descriptors for one key make the lookup ambiguous.",
            r#"definition interfaces: [{"name":"mcp.server","version":"1"},{"name":"mcp.server","version":"1","description":"again"}]"#,
            r#"definition interfaces: [{"name":"mcp.server","version":"1"},{"name":"mcp.server","version":"2"}]"#,
        ),
        Code::InterfaceInputRule => e(
            "Legacy interface inputs: names unique; a literal has a value and no pointer; resource_uri has neither; no other source carries a value; resourceUriInput names the one resource_uri input, and without it there is none.",
            "Inputs tell hosts where each interface value comes from; contradictory inputs would be wired differently by each host.",
            r#"definition interfaces[]: {"name":"mcp.server","version":"1","inputs":[{"name":"a","source":"literal"}]}"#,
            r#"definition interfaces[]: {"name":"mcp.server","version":"1","inputs":[{"name":"a","source":"literal","value":"x"}]}"#,
        ),
        Code::ConstraintOrderedPair => e(
            "Each orderedPair pointer must walk desiredSchema.properties to a property required at every level whose type is exactly \"integer\" or \"number\".",
            "Hosts compare the two values; a pointer to an optional or non-numeric field makes the constraint meaningless.",
            r#"constraints[]: {"kind":"orderedPair","references":["/className","/worker"]}   (className is a string)"#,
            r#"constraints[]: {"kind":"orderedPair","references":["/minReplicas","/maxReplicas"]}   (both required integers)"#,
        ),
        Code::ConstraintUniqueBy => e(
            "A uniqueBy list must walk to an array whose items are objects that require `member`, and the member's type must be string, integer, number or boolean.",
            "Uniqueness is checked by comparing scalar members; anything else cannot be compared the same way by every host.",
            r#"constraints[]: {"kind":"uniqueBy","list":"/className","member":"name"}   (className is a string)"#,
            r#"constraints[]: {"kind":"uniqueBy","list":"/routes","member":"name"}   (routes: array of objects requiring a string name)"#,
        ),
        Code::ConstraintRelation => e(
            "The local pointers of acyclic, distinctPair, uniquePair and sameResolvedTarget must be relation pointers of the desired schema (nodes carrying x-takoform-target-formrefs or x-takoform-required-interface).",
            "These constraints are about resolved references; naming a plain field means hosts have nothing to resolve.",
            r#"constraints[]: {"kind":"acyclic","reference":"/className"}   (a string property)"#,
            r#"constraints[]: {"kind":"acyclic","reference":"/worker"}   (worker carries x-takoform-required-interface)"#,
        ),
        Code::RoleBindings => e(
            "Withdrawn rule: a Form whose role is not revision could not declare acceptedBindings.",
            "Only revision-role Forms were meant to hold capability bindings; the current verifier dropped the rule and hosts check the source role instead.",
            r#"definition: {"role":"identity","acceptedBindings":[{"apiVersion":"bindings.takoform.com/v1alpha1",…}],…}   (was refused; accepted today)"#,
            r#"definition: {"role":"revision","acceptedBindings":[{"apiVersion":"bindings.takoform.com/v1alpha1",…}],…}"#,
        ),

        // FD5xx: relations
        Code::RelationAtRoot => e(
            "Warns when the desired schema root is itself reference-shaped (type object, closed, exactly apiVersion/kind/name required, const apiVersion and kind).",
            "Relation derivation refuses a reference at the root, so a host cannot install the Form.",
            r#"desiredSchema = {"type":"object","additionalProperties":false,"required":["apiVersion","kind","name"],"properties":{"apiVersion":{"const":"edge.forms.takoform.com"},"kind":{"const":"ModuleWorker"},"name":{"type":"string"}},…}"#,
            r#"desiredSchema = {"type":"object","additionalProperties":false,"properties":{"worker":{…the reference…}},…}"#,
        ),
        Code::RelationDepth => e(
            "Warns when relation derivation (through properties and items) goes deeper than 32 levels.",
            "Hosts stop deriving there with an error, so the Form cannot be installed.",
            r#"desiredSchema: 34 nested {"type":"object","additionalProperties":false,"properties":{"n":…}}"#,
            r#"desiredSchema: 3 nested {"type":"object","additionalProperties":false,"properties":{"n":…}}"#,
        ),
        Code::MissingTargetContract => e(
            "Warns when a reference states no target contract: neither x-takoform-target-formrefs nor x-takoform-required-interface.",
            "Current hosts refuse a reference without a contract (decision 0022): they cannot check what the target must be.",
            r#"desiredSchema.properties.worker = {"type":"object","additionalProperties":false,"required":["apiVersion","kind","name"],"properties":{"apiVersion":{"const":"edge.forms.takoform.com"},"kind":{"const":"ModuleWorker"},"name":{"type":"string"}}}"#,
            r#"desiredSchema.properties.worker = {…the same…,"x-takoform-required-interface":{"apiVersion":"interfaces.takoform.com/v1alpha1","name":"worker.runtime","version":"1.0.0","schemaDigest":"sha256:…"}}"#,
        ),
        Code::ConflictingTargetContracts => e(
            "Warns when a reference carries both x-takoform-target-formrefs and x-takoform-required-interface.",
            "A reference states exactly one contract; with two, hosts refuse it rather than guess which applies.",
            r#"desiredSchema.properties.worker = {…reference…,"x-takoform-target-formrefs":[{…}],"x-takoform-required-interface":{…}}"#,
            r#"desiredSchema.properties.worker = {…reference…,"x-takoform-required-interface":{…}}"#,
        ),
        Code::MalformedTargetContract => e(
            "Warns when a target contract is empty or incomplete: target-formrefs must be a non-empty array of objects with non-empty apiVersion, kind, definitionVersion, schemaDigest; required-interface an object with non-empty apiVersion, name, version, schemaDigest.",
            "Hosts pin the exact target with these members; an incomplete one cannot be checked.",
            r#"desiredSchema.properties.worker = {…reference…,"x-takoform-target-formrefs":[]}"#,
            r#"desiredSchema.properties.worker = {…reference…,"x-takoform-target-formrefs":[{"apiVersion":"edge.forms.takoform.com","kind":"ModuleWorker","definitionVersion":"0.2.0","schemaDigest":"sha256:…"}]}"#,
        ),
        Code::BindingNotAccepted => e(
            "Warns when an x-takoform-binding names a contract that no acceptedBindings entry has by name.",
            "Hosts refuse a binding relation whose contract the Form does not accept (decision 0015 rule 8 step 1).",
            r#"desiredSchema.properties.workers = {"type":"array","x-takoform-binding":"worker.binding","items":{…reference…}}   (no acceptedBindings entry named worker.binding)"#,
            r#"the same, with definition acceptedBindings: [{"apiVersion":"bindings.takoform.com/v1alpha1","name":"worker.binding","version":"1.0.0","schemaDigest":"sha256:…"}]"#,
        ),
        Code::NonConstReferenceIdentity => e(
            "Warns when an object is reference-shaped (closed, exactly apiVersion/kind/name required) but apiVersion or kind is not a non-empty const.",
            "Such a node is silently not a relation: hosts never resolve or protect what looks like a reference.",
            r#"desiredSchema.properties.worker = {…reference…,"properties":{"apiVersion":{"type":"string"},"kind":{"const":"ModuleWorker"},"name":{"type":"string"}}}"#,
            r#"desiredSchema.properties.worker = {…reference…,"properties":{"apiVersion":{"const":"edge.forms.takoform.com"},"kind":{"const":"ModuleWorker"},"name":{"type":"string"}}}"#,
        ),
        Code::HiddenReference => e(
            "Warns when a reference is reachable only through keywords derivation does not walk: $ref targets in $defs, allOf/anyOf/oneOf, additionalProperties, prefixItems, if/then/else, not, ….",
            "Hosts derive relations only through properties and items; a hidden reference is never resolved or protected.",
            r#"desiredSchema.$defs = {"Worker":{…reference with a contract…}}"#,
            r#"desiredSchema.properties = {"worker":{…reference with a contract…}}"#,
        ),
        Code::EdgeReferenceWithoutContract => e(
            "Notes a reference without a target contract in an edge.forms.takoform.com/v1alpha1 definition, which predates target contracts.",
            "Historical packages are accepted as published, but current hosts refuse such references; a new version should add a contract.",
            r#"edge v1alpha1 desiredSchema.properties.worker = {…reference…}   (no contract)"#,
            r#"edge v1alpha1 desiredSchema.properties.worker = {…reference…,"x-takoform-required-interface":{…}}"#,
        ),
        // FD6xx: revocation statements and checkpoints
        Code::UnsupportedRevocationApiVersion => e(
            "A revocation statement or checkpoint must be a JSON object whose string apiVersion is trust.forms.takoform.com/v1alpha1 (legacy) or trust.forms.takoform.com/v1 (current); the apiVersion selects the schema and the rules.",
            "A document of an unknown trust profile cannot be checked against any published schema, and a host must never treat it as a valid revocation.",
            r#"statement: {"apiVersion":"trust.forms.takoform.com/v2","kind":"FormPackageRevocation",…}"#,
            r#"statement: {"apiVersion":"trust.forms.takoform.com/v1","kind":"FormPackageRevocation",…}"#,
        ),
        Code::RevocationSchemaViolation => e(
            "The statement must satisfy form-package-revocation.schema.json of its profile (Draft 2020-12, formats asserted): closed, every effect const true, reasonCode from the list, advisoryUrl an https URI, and for v1 a versionless FormRef and a statementVersion other than 0.0.0.",
            "Hosts act on a revocation by blocking installs and activations; a statement that weakens an effect or names a package loosely would be acted on wrongly.",
            r#"statement: "effects": {"blockNewCreateOrUpdate": false, …}"#,
            r#"statement: "effects": {"blockNewCreateOrUpdate": true, "blockActivation": true, "retainBytesForObserveAndDelete": true}"#,
        ),
        Code::RevocationDecode => e(
            "After the schema, the document is decoded into typed fields: every sequence must be a plain integer literal that fits an unsigned 64-bit integer.",
            "The reference decodes into uint64 and refuses 1.0, 1e0 or 2^64 even though the schema's integer type accepts them; a port must refuse the same documents.",
            r#"statement: "sequence": 1.0"#,
            r#"statement: "sequence": 1"#,
        ),
        Code::RevocationFormRefGroup => e(
            "In the current profile, the statement's formRef.apiVersion must also pass NamespacedFormGroup: the reserved groups forms.takoform.com, packages.forms.takoform.com and trust.forms.takoform.com are refused even where the FormRef schema admits them.",
            "A revocation must name a real published Form group; a reserved group names no package and could shadow the trust infrastructure itself.",
            r#"statement: "formRef": {"apiVersion": "trust.forms.takoform.com", …}"#,
            r#"statement: "formRef": {"apiVersion": "storage.forms.publisher.example", …}"#,
        ),
        Code::CheckpointSchemaViolation => e(
            "The checkpoint must satisfy form-package-revocation-checkpoint.schema.json of its profile: closed entries, canonical digests, SemVer versions; in v1, sequence 0 is only the empty genesis (checkpointVersion 0.0.0, null predecessor, no entries) and every entry carries statementApiVersion.",
            "The checkpoint is the signed, cumulative list hosts compare packages against; a malformed one cannot be compared or chained safely.",
            r#"current checkpoint: "sequence": 0, "entries": [{…}]"#,
            r#"current checkpoint: "sequence": 0, "checkpointVersion": "0.0.0", "previousCheckpointDigest": null, "entries": []"#,
        ),
        Code::CheckpointEntryCount => e(
            "A checkpoint at sequence N must list exactly N cumulative entries (one per revocation statement so far).",
            "Entries are cumulative and append-only; a count that differs from the sequence means entries were dropped or duplicated.",
            r#"checkpoint: "sequence": 1, "entries": [{…}, {…}]"#,
            r#"checkpoint: "sequence": 1, "entries": [{…}]"#,
        ),
        Code::CheckpointPreviousDigest => e(
            "Legacy profile: sequence 1 must have previousCheckpointDigest null, and every later sequence a canonical sha256 digest (the current profile's schema already requires a digest for sequence > 0).",
            "The predecessor digest is what chains checkpoints; a first checkpoint with a predecessor, or a later one without, cannot be placed in a chain.",
            r#"legacy checkpoint: "sequence": 2, "previousCheckpointDigest": null"#,
            r#"legacy checkpoint: "sequence": 2, "previousCheckpointDigest": "sha256:58f8…0521""#,
        ),
        Code::CheckpointEntrySequence => e(
            "entries[i].sequence must be i + 1.",
            "The entry sequence is the statement's sequence; a gap or reorder means a statement was removed or moved.",
            r#"checkpoint: "entries": [{"sequence": 9, …}, …]"#,
            r#"checkpoint: "entries": [{"sequence": 1, …}, {"sequence": 2, …}]"#,
        ),
        Code::CheckpointDuplicateStatementVersion => e(
            "No two entries may share a statementVersion.",
            "The statementVersion identifies one statement; two entries with one version make the checkpoint ambiguous.",
            r#"checkpoint: entries[0].statementVersion "1.0.0", entries[1].statementVersion "1.0.0""#,
            r#"checkpoint: entries[0].statementVersion "1.0.0", entries[1].statementVersion "1.1.0""#,
        ),
        Code::CheckpointDuplicateStatementDigest => e(
            "No two entries may share a statementDigest.",
            "Each entry stands for one signed statement; the same statement listed twice inflates the sequence without revoking anything new.",
            r#"checkpoint: entries[1].statementDigest equals entries[0].statementDigest"#,
            r#"checkpoint: each entry's statementDigest is the canonical digest of its own statement"#,
        ),
        Code::CheckpointFinalVersion => e(
            "For a sequence above 0, the last entry's statementVersion must equal checkpointVersion.",
            "The checkpoint version names the newest statement it includes; a mismatch means the checkpoint and its entries disagree about what it covers.",
            r#"checkpoint: "checkpointVersion": "1.0.1", last entry "statementVersion": "1.0.0""#,
            r#"checkpoint: "checkpointVersion": "1.0.0", last entry "statementVersion": "1.0.0""#,
        ),
        Code::CheckpointEntryFormRefGroup => e(
            "In the current profile, each entry's formRef.apiVersion must pass NamespacedFormGroup (no reserved takoform.com group).",
            "As for statements: an entry must name a real published Form group.",
            r#"current checkpoint: entries[0].formRef.apiVersion "trust.forms.takoform.com""#,
            r#"current checkpoint: entries[0].formRef.apiVersion "storage.forms.publisher.example""#,
        ),
        Code::InvalidCheckpointPin => e(
            "The --previous-pin file must hold one pin object: sequence (unsigned integer), digest and entriesDigest (canonical sha256 digests), and for the current profile checkpointApiVersion trust.forms.takoform.com/v1; a legacy pin (no checkpointApiVersion) never has sequence 0.",
            "The pin is the only state a host keeps between checkpoints; a malformed pin cannot prove anything about the next checkpoint.",
            r#"pin: {"sequence": 1, "digest": "sha256:58F8…", "entriesDigest": "sha256:f380…"}"#,
            r#"pin: {"sequence": 1, "digest": "sha256:58f8…0521", "entriesDigest": "sha256:f380…18a6"}"#,
        ),
        Code::CheckpointFirstPin => e(
            "With --advance and no pin, the checkpoint must be a first trusted one: legacy sequence 1 with a null predecessor, or the current profile's sequence 0 genesis.",
            "A host that starts trusting a chain in the middle cannot know what came before; trust starts at the beginning.",
            r#"validate-revocation-checkpoint --advance checkpoint-2.json   (legacy, sequence 2)"#,
            r#"validate-revocation-checkpoint --advance checkpoint-1.json   (legacy, sequence 1)"#,
        ),
        Code::CheckpointSequenceNotNext => e(
            "Advancing from a pin, the checkpoint's sequence must be the pinned sequence + 1.",
            "An older or repeated checkpoint (rollback, replay) would silently un-revoke packages; a skipped one hides a statement.",
            r#"--previous-pin pin-of-checkpoint-2.json checkpoint-1.json"#,
            r#"--previous-pin pin-of-checkpoint-1.json checkpoint-2.json"#,
        ),
        Code::CheckpointFork => e(
            "Advancing from a pin, previousCheckpointDigest must equal the pinned digest.",
            "A checkpoint that names another predecessor belongs to a different (forked) chain.",
            r#"checkpoint-2 with "previousCheckpointDigest": "sha256:eeee…", pin digest sha256:58f8…"#,
            r#"checkpoint-2 with "previousCheckpointDigest": "sha256:58f8…0521" (the pinned digest)"#,
        ),
        Code::CheckpointPrefixRewritten => e(
            "Advancing from a pin at sequence N, the canonical digest of the checkpoint's first N entries must equal the pinned entriesDigest.",
            "Entries are append-only: a successor that rewrites an earlier entry changes what was revoked.",
            r#"checkpoint-2 with entries[0].packageDigest changed, pin of checkpoint-1"#,
            r#"checkpoint-2 whose entries[0] is byte-for-byte checkpoint-1's entry"#,
        ),
        Code::CheckpointProfileMismatch => e(
            "Advancing from a pin, the checkpoint's apiVersion must be the pinned profile (a legacy pin has no checkpointApiVersion).",
            "A chain never crosses profiles: the current profile starts over from its own signed genesis.",
            r#"legacy pin + a trust.forms.takoform.com/v1 checkpoint"#,
            r#"legacy pin + a trust.forms.takoform.com/v1alpha1 checkpoint"#,
        ),
        Code::CheckpointGenesisPin => e(
            "A current-profile pin at sequence 0 must carry the digest of the canonical genesis document and the digest of an empty entries array.",
            "The genesis is the signed root of every v1 chain; a sequence-0 pin with any other digest is forged.",
            r#"pin: {"checkpointApiVersion": "trust.forms.takoform.com/v1", "sequence": 0, "digest": "sha256:ffff…", …}"#,
            r#"pin: {"checkpointApiVersion": "trust.forms.takoform.com/v1", "sequence": 0, "digest": "sha256:35c5…8f66", …}"#,
        ),
        Code::UnrecognizedDocument => e(
            "check recognises a document by its apiVersion and kind: a Form Definition (forms.takoform.com lanes or a namespaced group, with desiredSchema or definitionVersion), a package index (packages.forms.takoform.com, FormPackage), a revocation statement or checkpoint (trust.forms.takoform.com), a Binding Definition (bindings.takoform.com) or an Interface Definition (interfaces.takoform.com). Anything else is this finding.",
            "A file that is checked as nothing would otherwise pass in silence.",
            r#"check notes.json   ({"title": "x"})"#,
            r#"check definition.json   ({"apiVersion": "forms.takoform.com/v1alpha1", "kind": "ExampleStore", …})"#,
        ),
        Code::ContractSchemaViolation => e(
            "A Binding Definition must satisfy binding-definition-v1alpha1 or -v1alpha2 and an Interface Definition interface-definition-v1alpha1 (Draft 2020-12, formats asserted, offline).",
            "Hosts resolve bindings and interfaces by these documents' digests; a malformed contract cannot be matched against the Forms that name it.",
            r#"binding: {"apiVersion": "bindings.takoform.com/v1alpha2", "kind": "BindingDefinition", "name": 7, …}"#,
            r#"binding: {"apiVersion": "bindings.takoform.com/v1alpha2", "kind": "BindingDefinition", "name": "kv", …}"#,
        ),
        Code::UnsupportedContractApiVersion => e(
            "A document whose apiVersion is in the bindings.takoform.com or interfaces.takoform.com group must name a version with a published schema.",
            "An unknown version has no schema to check against.",
            r#"binding: {"apiVersion": "bindings.takoform.com/v9", …}"#,
            r#"binding: {"apiVersion": "bindings.takoform.com/v1alpha2", …}"#,
        ),
        Code::ConformanceManifest => e(
            "conformance DIR reads DIR/manifest.json in the reference's format: strict I-JSON, schemaVersion 1, non-empty positive ({name, path, kind}) and negative ({name, operation, path or value, wantError}) lists, names unique across both, operations canonicalize, content-policy, schema-policy, definition or package-path, and a wantError gist the runner knows.",
            "A manifest the runner misreads would pass or fail cases for the wrong reason.",
            r#"manifest.json: {"schemaVersion": 2, …}"#,
            r#"manifest.json: {"schemaVersion": 1, "positive": [{"name": "store", "path": "positive/store", "kind": "ExampleStore"}], "negative": [...]}"#,
        ),
        // FD7xx: a whole Form Family and its contracts (`form-package family`)
        Code::ContractDigestConflict => e(
            "Compares the RFC 8785 digests of loaded contracts of the same kind, name and version.",
            "A BindingRef or interface reference pins name, version and digest; two different contracts under one name@version make the pin ambiguous (decision 0014: contract bytes are immutable).",
            r#"a/definition.json and b/definition.json both worker.service 1.0.0, digests sha256:80… and sha256:8b…"#,
            r#"the changed contract published as worker.service 1.1.0"#,
        ),
        Code::RelationTargetNotLoaded => e(
            "For every relation of every Form, the target (apiVersion, kind) must be a Form loaded from the PATHs: the family is exactly what the PATHs hold.",
            "A host resolves every relation before any mutation (decision 0015 rule 3); a target kind the family lacks can never resolve, so every apply of the source fails resource_not_found.",
            r#"family packages/   (WorkerVersion references SQLiteDatabase; no SQLiteDatabase package under packages/)"#,
            r#"family packages/ (with the SQLiteDatabase package), or family --partial packages/ for a snapshot known to be incomplete"#,
        ),
        Code::RelationTargetUnchecked => e(
            "With --partial, a relation whose target kind is not loaded is noted instead of refused.",
            "A snapshot known to be incomplete cannot show whether such a relation holds; the note keeps it visible without failing the run.",
            r#"family --partial snapshot/   (QueueConsumer references a queue kind the snapshot lacks)"#,
            r#"family snapshot/   (every target kind loaded)"#,
        ),
        Code::RelationTargetExternal => e(
            "With --allow-external GROUP, a relation whose target group is GROUP is accepted without a loaded target.",
            "A family may rely on Forms of another family on purpose; naming the group keeps that choice explicit.",
            r#"family packages/   (target group platform.forms.example.com not loaded)"#,
            r#"family --allow-external platform.forms.example.com packages/"#,
        ),
        Code::TargetFormRefNotInFamily => e(
            "For a relation declaring x-takoform-target-formrefs, the target Form loaded in the family must be one of the listed FormRefs exactly: apiVersion, kind, definitionVersion and schemaDigest (the canonical digest of its definition).",
            "A host pins the exact FormRef and refuses any other (verifier-rules.md §8.7); a listed digest that no loaded package has means the relation can only ever target a Form that is not in the family.",
            r#"x-takoform-target-formrefs: [{"kind":"ModuleWorker","definitionVersion":"0.1.0","schemaDigest":"sha256:0000…"}]   (the loaded ModuleWorker is sha256:6de1…)"#,
            r#"x-takoform-target-formrefs: [{"kind":"ModuleWorker","definitionVersion":"0.1.0","schemaDigest":"sha256:6de1…"}]"#,
        ),
        Code::TargetInterfaceNotProvided => e(
            "For a relation declaring x-takoform-required-interface, the target Form must declare that Interface in providedInterfaces with the same name, version and schemaDigest.",
            "A host verifies the target contract before any mutation and refuses a target that does not provide the required Interface.",
            r#"required worker.runtime@1.0.0 sha256:c5d7…; target providedInterfaces: []"#,
            r#"target providedInterfaces: [{"name":"worker.runtime","version":"1.0.0","schemaDigest":"sha256:c5d7…"}]"#,
        ),
        Code::RequiredInterfaceNotLoaded => e(
            "The Interface a relation requires must be loaded from the PATHs as an Interface Definition whose canonical digest equals the schemaDigest named.",
            "The digest pins a contract text; if no such text is in the family, nobody can check what the target promises.",
            r#"required edge.sql@1.0.0 sha256:ff48…; no interfaces/…/edge.sql definition.json under the PATHs"#,
            r#"contracts/interfaces/v1alpha1/edge.sql-ff48410cf2d5/definition.json loaded"#,
        ),
        Code::BindingNotAcceptedBySource => e(
            "Rule 8 step 1: a binding relation's x-takoform-binding contract must be an acceptedBindings entry of the source Form (by name).",
            "A host refuses such a binding with invalid_argument before any mutation (decision 0015 rule 8).",
            r#"serviceBindings x-takoform-binding "module-worker.service"; acceptedBindings lacks module-worker.service"#,
            r#"acceptedBindings: [{"name":"module-worker.service","version":"1.0.0","schemaDigest":"sha256:7d98…"}]"#,
        ),
        Code::BindingContractNotLoaded => e(
            "Rule 8 step 2: a loaded Binding Definition must have exactly the accepted BindingRef's name, version and canonical digest (the static counterpart of unsupported_capability).",
            "A host that has not installed that exact contract refuses the binding with unsupported_capability (422).",
            r#"acceptedBindings module-worker.service 1.0.0 sha256:7d98…; the loaded module-worker.service 1.0.0 is sha256:9d72…"#,
            r#"the Binding Definition whose canonical digest is sha256:7d98… loaded"#,
        ),
        Code::BindingSourceRole => e(
            "Rule 8 step 3: the source Form's role must equal the Binding's sourceRole.",
            "A host refuses the binding with invalid_argument.",
            r#"WorkerVersion role "revision"; Binding sourceRole "identity""#,
            r#"Binding sourceRole "revision""#,
        ),
        Code::BindingTargetFormNotAllowed => e(
            "Rule 8 step 4: the relation's target Form (apiVersion, kind) must appear in the Binding's allowedTargetForms.",
            "A host refuses the binding with invalid_argument.",
            r#"relation targets SQLiteDatabase; allowedTargetForms: [{"kind":"ObjectBucket"}]"#,
            r#"allowedTargetForms: [{"apiVersion":"edge.forms.takoform.com/v1beta1","kind":"SQLiteDatabase"}]"#,
        ),
        Code::BindingTargetInterfaceNotProvided => e(
            "Rule 8 step 5: the target Form must declare the Binding's targetInterface (name, version, schemaDigest) in providedInterfaces.",
            "A host refuses the binding with invalid_argument.",
            r#"targetInterface edge.sql@1.0.0; SQLiteDatabase providedInterfaces: []"#,
            r#"SQLiteDatabase providedInterfaces: [{"name":"edge.sql","version":"1.0.0","schemaDigest":"sha256:ff48…"}]"#,
        ),
        Code::AcceptedBindingRoleMismatch => e(
            "For every acceptedBindings entry whose Binding Definition is loaded, the accepting Form's role must equal the Binding's sourceRole, whether or not the schema derives a relation for it.",
            "Otherwise every binding of it fails rule 8 step 3: the Form accepts a contract it can never use.",
            r#"ModuleWorker (role identity) accepts module-worker.service (sourceRole revision)"#,
            r#"WorkerVersion (role revision) accepts module-worker.service"#,
        ),
        Code::AcceptedBindingUnsatisfiable => e(
            "For every acceptedBindings entry whose Binding Definition is loaded, at least one loaded Form in its allowedTargetForms must declare its targetInterface (name, version, digest).",
            "Otherwise no binding of it could ever verify: the contract inconsistency of decision 0015's Consequences (the service binding allowed ModuleWorker while worker.service was declared on WorkerVersion).",
            r#"module-worker.service allows ModuleWorker; worker.service declared only on WorkerVersion"#,
            r#"worker.service declared in ModuleWorker's providedInterfaces"#,
        ),
        Code::AcceptedBindingNotLoaded => e(
            "An acceptedBindings entry that no derived relation names (older {kind, name} schemas) must still match a loaded Binding Definition by name, version and canonical digest.",
            "A host has to install that exact contract before any binding of it can verify (rule 8 step 2).",
            r#"acceptedBindings module-worker.sqlite 1.0.0 sha256:10cd…; loaded module-worker.sqlite is sha256:ebd2…"#,
            r#"the Binding Definition with digest sha256:10cd… under the PATHs"#,
        ),
        Code::CandidateSetInvalid => e(
            "A candidate-set*.json file must have format takoform.binding-candidates@v1 (bindings) or takoform.interface-candidates@v1 (interfaces), each entry with string name, version and schemaDigest.",
            "A candidate set that cannot be read cannot say what was published together.",
            r#"{"format":"takoform.candidates@v2","bindings":[…]}"#,
            r#"{"format":"takoform.binding-candidates@v1","bindings":[{"name":"module-worker.service","version":"1.0.0","schemaDigest":"sha256:7d98…"}]}"#,
        ),
        Code::CandidateDigestMismatch => e(
            "Every candidate-set entry's digest must equal the canonical digest of the loaded contract of that name and version.",
            "A candidate set that disagrees with the contracts beside it publishes a contract that is not the one shipped.",
            r#"candidate module-worker.service 1.0.0 sha256:7d98…; loaded module-worker.service 1.0.0 is sha256:9d72…"#,
            r#"candidate digest sha256:9d72… (regenerated from the contracts)"#,
        ),
        Code::CandidateNotLoaded => e(
            "Warns when a candidate set lists a contract (name, version) that is not loaded from the PATHs.",
            "The family under check then lacks a contract its publisher meant to ship with it.",
            r#"candidate edge.sql 1.0.0; no edge.sql Interface Definition under the PATHs"#,
            r#"the edge.sql Interface Definition under the PATHs"#,
        ),
        Code::FamilyFormNotLoaded => e(
            "Warns when a package's Form Definition cannot be read (no index, no definitionPath, not I-JSON, no apiVersion/kind), so the Form takes no part in the family checks.",
            "Its relations and declarations cannot be checked; its verify findings say why.",
            r#"packages/broken   (package-index.json is not I-JSON)"#,
            r#"packages/broken   (a package that verifies)"#,
        ),
    }
}
