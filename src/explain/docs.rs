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
            Code::TrustInvalidPolicy => e(
            "Refuses a publisher policy that is not exactly the six members of trust.forms.takoform.com/v1alpha1 PublisherPolicy with exact URIs and one exact ref.",
            "A loose policy (unknown member, wildcard ref, workflow outside the repository) would let another workflow or branch pass as the publisher.",
            r#"policy.ref = "refs/heads/*""#,
            r#"policy.ref = "refs/heads/main""#,
        ),
        Code::TrustMalformedBundle => e(
            "Refuses a bundle that is not a Sigstore v0.3 message-signature bundle with a certificate.",
            "Anything else cannot be verified against the subject the way the publisher signed it.",
            r#"bundle = {"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json"}"#,
            r#"bundle = {"mediaType":"…v0.3+json","verificationMaterial":{…},"messageSignature":{…}}"#,
        ),
        Code::TrustMalformedRoot => e(
            "Refuses a trusted root that does not parse (media type, keys, certificates, validity windows).",
            "The root is the only trust anchor; a half-read root would silently trust less or more than intended.",
            r#"trusted-root = {}"#,
            r#"trusted-root = {"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1",…}"#,
        ),
        Code::TrustMissingTransparency => e(
            "Refuses a bundle with no transparency-log entry or with an entry lacking its inclusion proof.",
            "Without the log entry and proof nobody can audit that the signature was published.",
            r#"tlogEntries[0] = {…, no "inclusionProof"}"#,
            r#"tlogEntries[0] = {…,"inclusionProof":{…}}"#,
        ),
        Code::TrustCertificateChain => e(
            "Checks that the leaf certificate chains to a Fulcio CA of the trusted root and that every certificate and the CA's window are valid at each verified signing time.",
            "A certificate from another CA, or outside its validity, proves no identity.",
            r#"certificateAuthorities[1].validFor = {"start":"2030-01-01T00:00:00Z"}"#,
            r#"certificateAuthorities[1].validFor = {"start":"2022-04-13T20:06:15Z"}"#,
        ),
        Code::TrustCertificateTimestamp => e(
            "Checks that the leaf certificate carries an SCT from a CT log of the trusted root whose signature verifies over the precertificate.",
            "The SCT proves the certificate was logged publicly, so a mis-issued one can be seen.",
            r#"ctlogs = []"#,
            r#"ctlogs = [{…the log that issued the SCT…}]"#,
        ),
        Code::TrustSignature => e(
            "Checks the ECDSA signature over the subject's SHA-256 (or the given package digest) and that the bundle's messageDigest names the same subject.",
            "Otherwise a valid bundle of one package would vouch for another.",
            r#"subject = "…probe\n!""#,
            r#"subject = "…probe\n""#,
        ),
        Code::TrustLogEntry => e(
            "Checks that each Rekor entry is a hashedrekord of this digest, signature and certificate, names a Rekor log of the root valid at its integrated time, and that its signed entry timestamp verifies.",
            "An entry of another signature, or a forged promise, proves nothing about this one.",
            r#"inclusionPromise.signedEntryTimestamp = "…one byte changed…""#,
            r#"inclusionPromise.signedEntryTimestamp = "…as the log signed it…""#,
        ),
        Code::TrustInclusionProof => e(
            "Walks the RFC 6962 audit path from the entry's leaf hash and compares the result with the proof's root hash.",
            "A proof that does not lead to the root does not show the entry is in the log.",
            r#"inclusionProof.hashes[0] = "…one byte changed…""#,
            r#"inclusionProof.hashes[0] = "…as the log returned it…""#,
        ),
        Code::TrustLogCheckpoint => e(
            "Parses the signed note checkpoint (origin, size, root hash, U+2014 signature line), requires it to match the proof's size and root, and verifies its signature under the Rekor key.",
            "The checkpoint is the log's signed commitment to the root the proof reaches.",
            r#"checkpoint.envelope = "…\n2073648137\n<other root>\n\n— …""#,
            r#"checkpoint.envelope = "…\n2073648137\n<proof root>\n\n— …""#,
        ),
        Code::TrustTimestamp => e(
            "Verifies each RFC 3161 token: granted status, TSTInfo imprint of the signature, signed attributes, TSA signature and chain, and the TSA window at genTime.",
            "A timestamp is a trusted signing time only when the TSA of the root issued it for this signature.",
            r#"timestampAuthorities = []   (with a token present)"#,
            r#"timestampAuthorities = [{…the TSA that issued the token…}]"#,
        ),
        Code::TrustThreshold => e(
            "Requires at least one verified log entry, one verified time (log entry or RFC 3161 timestamp) and one verified SCT.",
            "Each threshold is evidence the Core's verifier also demands; fewer would be a weaker promise.",
            r#"tlogEntries = []"#,
            r#"tlogEntries = [{…}]"#,
        ),
        Code::TrustIdentity => e(
            "Compares the certificate's OIDC issuer, SAN (workflow@ref), source repository, ref and build signer with the policy literally, and requires the three commit extensions to be 40 lowercase hex, not all zeros.",
            "The policy names one exact publisher; near matches (another branch, workflow or repository) are other publishers.",
            r#"policy.ref = "refs/heads/main"   (signed on refs/heads/release)"#,
            r#"policy.ref = "refs/heads/release""#,
        ),
        Code::TrustInvalidCheckpoint => e(
            "Refuses a revocation checkpoint that is not RFC 8785 bytes, not a valid checkpoint, does not extend the caller's previous pin, or is asked about a FormRef or digest not of its profile.",
            "A rolled-back, forked or rewritten checkpoint could hide a revocation.",
            r#"previous pin = genesis pin, checkpoint = the genesis again"#,
            r#"previous pin = genesis pin, checkpoint = sequence 1 extending it"#,
        ),
        Code::TrustRevoked => e(
            "Reports that the verified checkpoint lists the package digest with this FormRef.",
            "A revoked package must not be installed.",
            r#"entries[0].packageDigest = <this package>"#,
            r#"entries = []"#,
        ),
        Code::TrustInputError => e(
            "Refuses an input file that cannot be read or is not what its flag expects: a FormRef, a pin, a package that fails verification.",
            "The command cannot answer about an input it cannot read.",
            r#"--form-ref missing.json"#,
            r#"--form-ref formref.json"#,
        ),
}
}
