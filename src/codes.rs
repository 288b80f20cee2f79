//! The one table of diagnostic codes.
//!
//! Every finding carries a [`Code`]. Its [`CodeInfo`] gives the stable id
//! (`FD` + three digits, grouped by stage: `FD0xx` package and strict parse,
//! `FD1xx` structure, identity and digests, `FD2xx` schema proofs, `FD3xx`
//! vocabulary, `FD4xx` definition rules and fixtures, `FD5xx` relations,
//! `FD6xx` revocation statements and checkpoints, `check` and `conformance`),
//! a kebab-case name of the problem, the default severity, the spec section
//! it implements, and the `specCode` of the catalogue in
//! `verifier-rules.md` §10 / `current-profile.md` §13 it corresponds to (the
//! `specCode` the corpus mutants carry). Codes are never reused; a retired
//! code stays with `status: Removed`.

/// How bad a finding is (the default of each code; re-exported as
/// `diag::Severity`). Only `Error` fails a package (unless the user asks
/// `--deny-warnings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// The package fails verification.
    Error,
    /// Worth fixing; does not change the verdict.
    Warning,
    /// Information only.
    Note,
}

/// Whether a code can still fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Fires today.
    Active,
    /// Kept for history; never emitted.
    Removed,
}

/// Everything known about one code.
#[derive(Clone, Copy, Debug)]
pub struct CodeInfo {
    /// The enum value.
    pub code: Code,
    /// `FD` + three digits.
    pub id: &'static str,
    /// Kebab-case name of the problem.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// Catalogue entry of `verifier-rules.md` §10 / `current-profile.md` §13
    /// (`""` for findings the reference does not have).
    pub spec_code: &'static str,
    /// Spec document and section.
    pub spec_ref: &'static str,
    /// One line: what the rule checks.
    pub summary: &'static str,
    /// Default help line.
    pub help: Option<&'static str>,
    /// Active or removed.
    pub status: Status,
}

macro_rules! codes {
    ($( $variant:ident = $id:literal, $name:literal, $sev:ident, $spec:literal, $sref:literal, $summary:literal, $help:expr, $status:ident; )*) => {
        /// A stable diagnostic code. See the module docs for the numbering.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code { $( #[doc = $summary] $variant, )* }

        /// Every code, in id order.
        pub static TABLE: &[CodeInfo] = &[ $( CodeInfo {
            code: Code::$variant, id: $id, name: $name, severity: Severity::$sev,
            spec_code: $spec, spec_ref: $sref, summary: $summary, help: $help, status: Status::$status,
        }, )* ];

        impl Code {
            /// The table row of this code.
            // Invariant: TABLE is built from the same list, in the same
            // order, as the enum, so `Code::X as usize` indexes its own row
            // (the `table_is_consistent` test checks it).
            #[allow(clippy::indexing_slicing)]
            pub fn info(self) -> &'static CodeInfo {
                match self { $( Code::$variant => &TABLE[Code::$variant as usize], )* }
            }
        }
    };
}

codes! {
    // FD0xx: package directory, file system and strict parse
    RootNotDirectory = "FD001", "root-not-directory", Error, "ROOT_NOT_DIR", "verifier-rules.md §1.2 R1.1", "the package root is not a real directory (missing, a file, or a symlink)", Some("point at the package directory itself: a real directory, not a file or a link to one"), Active;
    RootOpen = "FD002", "root-open-failed", Error, "ROOT_OPEN", "verifier-rules.md §1.2 R1.2", "the package root could not be opened or inspected", Some("check the directory's permissions and that it still exists"), Active;
    RootChanged = "FD003", "root-changed", Error, "ROOT_CHANGED", "verifier-rules.md §1.2 R1.3", "the package root's identity or metadata changed during verification", Some("verify an immutable copy of the package"), Active;
    SymlinkEntry = "FD004", "symlink-entry", Error, "ENTRY_SYMLINK", "verifier-rules.md §1.3 R1.5", "a symlink inside the package", Some("replace the link with the file it points to, or remove it"), Active;
    SpecialFile = "FD005", "special-file-entry", Error, "ENTRY_SPECIAL", "verifier-rules.md §1.3 R1.7", "a FIFO, socket or device inside the package", Some("remove it: packages hold regular files only"), Active;
    ExecutableMode = "FD006", "executable-mode-entry", Error, "ENTRY_EXEC_MODE", "verifier-rules.md §1.3 R1.8", "a file with an execute bit", Some("clear the execute bits (chmod a-x)"), Active;
    ExecutableExtension = "FD007", "executable-extension-entry", Error, "ENTRY_EXEC_EXT", "verifier-rules.md §1.3 R1.9", "a file whose extension names executable code", Some("packages are data only: remove the code file"), Active;
    InvalidEntryPath = "FD008", "invalid-entry-path", Error, "ENTRY_BAD_PATH", "verifier-rules.md §1.3 R1.10, R1.13", "a file name on disk fails the package path grammar", Some("rename it to ASCII letters, digits, '.', '_' and '-'"), Active;
    MissingIndex = "FD009", "missing-package-index", Error, "NO_INDEX", "verifier-rules.md §1.3 R1.11", "no package-index.json directly in the package root", Some("write one with `form-package index DIR`, or point at the package directory"), Active;
    UnreadableIndex = "FD010", "unreadable-package-index", Error, "READ_INDEX", "verifier-rules.md §1.4", "package-index.json could not be read or exceeds 4 MiB", Some("keep package-index.json a regular file of at most 4 MiB"), Active;
    InvalidUtf8 = "FD011", "invalid-utf8", Error, "IJSON_UTF8", "verifier-rules.md §2.1 J1", "a JSON input is not valid UTF-8", Some("save the file as UTF-8"), Active;
    InvalidIJson = "FD012", "invalid-i-json", Error, "IJSON_SYNTAX", "verifier-rules.md §2.1 J2-J6", "a JSON input breaks the strict I-JSON grammar (syntax, duplicate names, surrogates, -0, non-finite numbers, nesting)", Some("fix the JSON at the marked token; a BOM, duplicate names, -0, NaN/Infinity, lone surrogates and nesting deeper than 256 are refused"), Active;
    ScalarTopLevel = "FD013", "scalar-top-level", Error, "JCS_TOPLEVEL", "verifier-rules.md §2.1 J7, §2.2", "a JSON document whose top level is not an object or array cannot be canonicalized", Some("wrap the value in an object or array"), Active;
    UnreadablePayload = "FD014", "unreadable-payload", Error, "READ_PAYLOAD", "verifier-rules.md §1.7 R1.20", "a listed payload could not be opened or read safely, or changed while being read", Some("make the payload a regular, non-executable file and verify an immutable copy"), Active;
    PayloadSizeMismatch = "FD015", "payload-size-mismatch", Error, "SIZE_MISMATCH", "verifier-rules.md §1.7 R1.21", "a payload's byte length differs from its listed size", Some("if you changed the file, re-index (`form-package index DIR`); if you did not, the package was altered after it was indexed: do not install it"), Active;
    PayloadDigestMismatch = "FD016", "payload-digest-mismatch", Error, "DIGEST_MISMATCH", "verifier-rules.md §1.7 R1.22", "a payload's SHA-256 differs from its listed digest", Some("if you changed the file, re-index (`form-package index DIR`); if you did not, the package was altered after it was indexed: do not install it"), Active;
    InvalidTextPayload = "FD017", "invalid-text-payload", Error, "TEXT_ENCODING", "verifier-rules.md §1.7 R1.24", "a text payload is not valid UTF-8 or contains NUL", Some("save text payloads as UTF-8 without NUL bytes"), Active;
    UnlistedFile = "FD018", "unlisted-file", Error, "CLOSURE", "verifier-rules.md §1.6 R1.18", "a file in the package directory is not listed in package-index.json", Some("list it in `files` or remove it from the directory"), Active;
    MissingListedFile = "FD019", "missing-listed-file", Error, "CLOSURE", "verifier-rules.md §1.6 R1.18", "a file listed in package-index.json is not in the package directory", Some("if you removed or renamed the file, re-index (`form-package index DIR`); if you did not, this copy of the package is incomplete: do not install it, fetch it again"), Active;
    InvalidJsonPayload = "FD020", "invalid-json-payload", Error, "PAYLOAD_IJSON", "verifier-rules.md §1.7 R1.23, §2.1", "a listed JSON payload breaks the strict I-JSON grammar", Some("fix the JSON at the marked token; duplicate names, -0, NaN/Infinity, lone surrogates, a BOM and nesting deeper than 256 are refused"), Active;

    // FD1xx: index and definition structure, identity, digests
    UnsupportedIndexApiVersion = "FD100", "unsupported-index-api-version", Error, "INDEX_API", "verifier-rules.md §0.2 S1; current-profile.md §2.1", "the package index apiVersion is not a known profile (or the envelope is not an object with a string apiVersion)", Some("use packages.forms.takoform.com/v1alpha1 .. v1alpha5"), Active;
    IndexSchemaViolation = "FD101", "index-schema-violation", Error, "INDEX_SCHEMA", "verifier-rules.md §2.6; current-profile.md §3", "package-index.json does not satisfy its profile's Draft 2020-12 schema", Some("make package-index.json match its profile's published schema (see `form-package explain FD101`)"), Active;
    IndexDecode = "FD102", "index-decode", Error, "INDEX_DECODE", "verifier-rules.md §1.5", "an index number the schema accepts is not a plain integer literal (typed decode)", Some("write sizes as plain integers, e.g. 120 not 120.0 or 1.2e2"), Active;
    TooManyFiles = "FD103", "too-many-files", Error, "TOO_MANY_FILES", "verifier-rules.md §1.4", "the index lists more than 1024 files", Some("a package lists at most 1024 files: split it or drop files"), Active;
    IndexIdentity = "FD104", "index-identity", Error, "INDEX_IDENTITY", "verifier-rules.md §1.1 step 7", "index apiVersion/kind is not an accepted package identity", Some("set \"kind\": \"FormPackage\" and a known packages.forms.takoform.com apiVersion"), Active;
    InvalidPayloadPath = "FD105", "invalid-payload-path", Error, "FILE_PATH", "verifier-rules.md §1.5 R1.12-R1.13", "a listed path fails the package path grammar", Some("use a relative path of ASCII letters, digits, '.', '_', '-' and '/' (1..240 bytes, no '.'/'..' segments)"), Active;
    IndexListsItself = "FD106", "index-lists-itself", Error, "FILE_SELF", "verifier-rules.md §1.5 R1.14", "the index lists package-index.json as a payload", Some("remove the entry: the index is the signed subject, never a payload"), Active;
    DuplicatePayloadPath = "FD107", "duplicate-payload-path", Error, "FILE_DUP", "verifier-rules.md §1.5 R1.15", "two index entries name the same path", Some("list each file once"), Active;
    UnsortedPayloadPaths = "FD108", "unsorted-payload-paths", Error, "FILE_ORDER", "verifier-rules.md §1.5 R1.16", "index entries are not in strictly ascending byte order of path", Some("sort `files` by path, byte-wise"), Active;
    NonCanonicalDigest = "FD109", "non-canonical-digest", Error, "FILE_DIGEST_FMT", "verifier-rules.md §1.5 R1.17, §2.3 D1", "a listed digest is not `sha256:` + 64 lowercase hex", Some("write digests as sha256: followed by 64 lowercase hex digits"), Active;
    PayloadSizeOutOfRange = "FD110", "payload-size-out-of-range", Error, "FILE_SIZE_RANGE", "verifier-rules.md §1.5 R1.17", "a listed size is outside 0..67108864", Some("a payload is at most 64 MiB"), Active;
    DefinitionTooLarge = "FD111", "definition-too-large", Error, "DEF_TOO_BIG", "verifier-rules.md §1.4", "the Form Definition payload exceeds 4 MiB", Some("a Form Definition is at most 4 MiB"), Active;
    JsonPayloadTooLarge = "FD112", "json-payload-too-large", Error, "JSON_TOO_BIG", "verifier-rules.md §1.4", "a JSON payload exceeds 16 MiB", Some("a JSON payload is at most 16 MiB"), Active;
    ExecutablePayloadExtension = "FD113", "executable-payload-extension", Error, "MEDIA_EXEC_EXT", "verifier-rules.md §1.8", "a listed payload has an executable-code extension", Some("packages are data only: remove the code file and its entry"), Active;
    MediaTypeExtensionMismatch = "FD114", "media-type-extension-mismatch", Error, "MEDIA_EXT", "verifier-rules.md §1.8", "a payload's extension does not match its media type", Some("use .json for JSON types, .md/.markdown for text/markdown, .txt for text/plain"), Active;
    UnsupportedMediaType = "FD115", "unsupported-media-type", Error, "MEDIA_UNKNOWN", "verifier-rules.md §1.8", "a payload's media type is outside the allowlist", Some("use one of the five allowed media types"), Active;
    PayloadTotalTooLarge = "FD116", "payload-total-too-large", Error, "TOTAL_TOO_BIG", "verifier-rules.md §1.4", "the listed sizes add up to more than 256 MiB", Some("the listed sizes may add up to at most 256 MiB"), Active;
    DefinitionCount = "FD117", "definition-count", Error, "DEF_COUNT", "verifier-rules.md §1.6 R1.19", "the index does not list exactly one Form Definition payload", Some("list exactly one file as application/vnd.takoform.form-definition.v1+json"), Active;
    DefinitionPathUnlisted = "FD118", "definition-path-unlisted", Error, "DEF_PATH_UNLISTED", "verifier-rules.md §1.1 step 12", "definitionPath names a file the index does not list", Some("point definitionPath at the listed definition file"), Active;
    DefinitionPathMediaType = "FD119", "definition-path-media-type", Error, "DEF_PATH_MEDIA", "verifier-rules.md §1.1 step 12", "definitionPath names a file without the Form Definition media type", Some("list the definition as application/vnd.takoform.form-definition.v1+json"), Active;
    UnsupportedDefinitionApiVersion = "FD120", "unsupported-definition-api-version", Error, "DEF_API", "verifier-rules.md §0.2 S2, §0.3; current-profile.md §2.3-2.4", "the Form Definition apiVersion selects no definition schema", Some("use forms.takoform.com/v1alpha1, forms.takoform.com/v1alpha2, or a namespaced group such as edge.forms.takoform.com (versioned under index v1alpha4, versionless under v1alpha5)"), Active;
    DefinitionSchemaViolation = "FD121", "definition-schema-violation", Error, "DEF_SCHEMA", "verifier-rules.md §3; current-profile.md §5", "the Form Definition does not satisfy its profile's Draft 2020-12 schema", Some("make the definition match its lane's published schema (see `form-package explain FD121`)"), Active;
    DefinitionDecode = "FD122", "definition-decode", Error, "DEF_DECODE", "current-profile.md §5.1 (typed decode QUIRK)", "a definition number the schema accepts is not a plain int64 literal (typed decode)", Some("write the number as a plain integer literal"), Active;
    SchemaDigestMismatch = "FD123", "schema-digest-mismatch", Error, "SCHEMA_DIGEST", "verifier-rules.md §1.1 step 14, §2.3 D3", "formRef.schemaDigest is not the SHA-256 of the canonical definition", Some("re-index the package: `form-package index DIR` recomputes formRef.schemaDigest"), Active;
    FormRefIdentityMismatch = "FD124", "formref-identity-mismatch", Error, "IDENTITY_MISMATCH", "verifier-rules.md §1.1 step 15", "formRef apiVersion/kind/definitionVersion differ from the definition's", Some("make formRef apiVersion, kind and definitionVersion equal the definition's (`form-package index DIR` recomputes them)"), Active;
    InvalidFormRef = "FD125", "invalid-formref", Error, "FORMREF_INVALID", "verifier-rules.md §0.2 S3; current-profile.md §2.5", "the FormRef fails re-validation against its lane's FormRef schema", Some("make formRef match its lane's FormRef grammar"), Active;
    VersionedFormRef = "FD126", "versioned-formref-in-neutral-profile", Error, "FORMREF_VERSIONED", "current-profile.md §2.5", "a current-neutral FormRef carries a group version", Some("use a versionless reverse-DNS group"), Active;

    // FD2xx: schema proofs
    NonLocalRef = "FD200", "non-local-ref", Error, "REF_NOT_LOCAL", "verifier-rules.md §5 F1", "a $ref that is not `#` or `#/…` (network, file, anchor, non-string)", Some("use a document-local JSON Pointer fragment such as #/$defs/Name"), Active;
    DynamicRef = "FD201", "dynamic-ref", Error, "REF_DYNAMIC", "verifier-rules.md §5 F1", "a $dynamicRef anywhere in an inline schema", Some("replace $dynamicRef with a local $ref"), Active;
    UnresolvedRef = "FD202", "unresolved-ref", Error, "REF_RESOLVE", "verifier-rules.md §5 F3", "a local $ref whose JSON Pointer does not resolve", Some("point the $ref at an existing member: #/$defs/Name, with ~0 for '~', ~1 for '/', %-escapes decoded"), Active;
    TrueSchema = "FD203", "true-schema", Error, "PROOF_TRUE", "verifier-rules.md §4.2 step 1", "a boolean `true` schema admits arbitrary objects", Some("replace `true` with a typed schema"), Active;
    NonSchemaValue = "FD204", "non-schema-value", Error, "PROOF_NOT_SCHEMA", "verifier-rules.md §4.2 step 2", "a subschema position holds neither an object nor a boolean", Some("use a schema object or false here"), Active;
    PatternProperties = "FD205", "pattern-properties", Error, "PROOF_PATTERNPROPS", "verifier-rules.md §4.2 step 3", "patternProperties is forbidden", Some("use the reviewed typed-map escape"), Active;
    LegacyDependencies = "FD206", "legacy-dependencies", Error, "PROOF_DEPENDENCIES", "verifier-rules.md §4.2 step 4", "the legacy `dependencies` keyword is forbidden", Some("use dependentRequired or dependentSchemas"), Active;
    ContentKeyword = "FD207", "content-keyword", Error, "PROOF_CONTENT", "verifier-rules.md §4.2 step 5", "contentEncoding/contentMediaType/contentSchema are forbidden", Some("portable Forms do not decode embedded content: remove the keyword"), Active;
    NestedDialect = "FD208", "nested-dialect", Error, "PROOF_DIALECT", "verifier-rules.md §4.2 step 6", "a nested $schema other than Draft 2020-12", Some("remove the nested $schema or set it to https://json-schema.org/draft/2020-12/schema"), Active;
    ResolutionScopeKeyword = "FD209", "resolution-scope-keyword", Error, "PROOF_SCOPE", "verifier-rules.md §4.2 step 7", "$id/$anchor/$dynamicAnchor/$recursiveAnchor/$recursiveRef/$vocabulary cannot be proven closed", Some("remove the keyword and use local $ref to #/$defs/…"), Active;
    MixedObjectConst = "FD210", "mixed-object-const", Error, "PROOF_CONST_MIXED", "verifier-rules.md §4.2 step 8", "an object-valued const with sibling keywords", Some("an exact object const must be the only keyword of its schema"), Active;
    MalformedSchemaKeyword = "FD211", "malformed-schema-keyword", Error, "PROOF_KEYWORD_SHAPE", "verifier-rules.md §4.2 steps 9-16", "a schema keyword has the wrong shape for the proof (properties not an object, empty allOf, …)", Some("give the keyword its JSON Schema shape (objects for properties/$defs, non-empty arrays for allOf/anyOf/oneOf/enum, string arrays for required)"), Active;
    ArrayWithoutItems = "FD212", "array-without-items", Error, "PROOF_ARRAY_ITEMS", "verifier-rules.md §4.2 step 12", "an array schema without `items`", Some("declare `items` so nested object admission is proven closed"), Active;
    OpenObjectSchema = "FD213", "open-object-schema", Error, "PROOF_OBJECT_OPEN", "verifier-rules.md §4.3", "an object schema without additionalProperties false or the typed-map escape", Some("add \"additionalProperties\": false"), Active;
    ImpureTypedMap = "FD214", "impure-typed-map", Error, "PROOF_TYPED_MAP", "verifier-rules.md §4.3", "a typed map that also declares fixed or dependent properties", Some("a typed map holds only propertyNames and additionalProperties: move fixed properties to a closed object"), Active;
    MapKeyPolicy = "FD215", "map-key-policy", Error, "PROOF_MAP_KEYS", "verifier-rules.md §4.3", "a typed map whose propertyNames is not exactly the reviewed marker", Some("set propertyNames to {\"type\":\"string\",\"pattern\":\"^[A-Za-z][A-Za-z0-9._-]{0,63}$\",\"x-takoform-fieldPolicy\":\"portable-data-only-v1\"}"), Active;
    ImplicitObjectKeywords = "FD216", "implicit-object-keywords", Error, "PROOF_IMPLICIT_OBJECT", "verifier-rules.md §4.2 step 13", "object keywords without explicit type=object", Some("add \"type\": \"object\" and \"additionalProperties\": false"), Active;
    OpenSchema = "FD217", "open-schema", Error, "PROOF_OPEN", "verifier-rules.md §4.1", "a schema node can admit arbitrary object values", Some("declare a non-object type, a closed object, or the reviewed typed-map escape"), Active;
    CyclicRef = "FD218", "cyclic-ref", Error, "PROOF_CYCLE", "verifier-rules.md §4.4", "a $ref cycle (including any $ref to #)", Some("break the cycle: portable schemas are finite trees of local references"), Active;
    ProofDepthExceeded = "FD219", "proof-depth-exceeded", Error, "PROOF_DEPTH", "verifier-rules.md §4.4", "a schema path longer than 64 edges", Some("flatten the schema: every path, $ref hops included, is at most 64 edges"), Active;
    ProofBudgetExceeded = "FD220", "proof-budget-exceeded", Error, "PROOF_BUDGET", "verifier-rules.md §4.4", "the proof spent more than 4096 operations", Some("share fewer $ref occurrences or shrink the schema: the proof spends at most 4096 operations"), Active;
    StructuralWorkExceeded = "FD221", "structural-work-exceeded", Error, "WORK_STRUCTURAL", "verifier-rules.md §4.6", "the structural validation-work estimate exceeds 16384", Some("reduce repeated $ref fan-out (every occurrence is charged again) below 16384 evaluations"), Active;
    InlineSchemaCompile = "FD222", "inline-schema-compile-error", Error, "COMPILE", "verifier-rules.md §12 E1-E2", "an inline schema fails the Draft 2020-12 meta-schema or has a pattern Go's regexp cannot compile", Some("fix the member at the pointer so the Draft 2020-12 meta-schema accepts it: a keyword of the right shape, a pattern Go's regexp compiles (no lookaround, backreferences or possessive quantifiers; counted repeats up to 1000), a $ref without \\ whose target is a valid schema"), Active;
    UnsatisfiableAllOf = "FD223", "unsatisfiable-all-of", Warning, "", "verifier-rules.md §4.3 (ours)", "closed allOf branches require a property another branch does not declare: no object satisfies both", Some("declare the required property in every closed allOf branch, or drop the requirement"), Active;

    // FD3xx: forbidden-field vocabulary
    ForbiddenPayloadField = "FD300", "forbidden-field-in-payload", Error, "PAYLOAD_FORBIDDEN", "verifier-rules.md §6, §1.7 R1.23; current-profile.md §7.4", "a JSON payload key is a forbidden field name (credentials, placement, commercial terms, code)", Some("portable data must not carry this field: rename or remove it"), Active;
    ForbiddenDefinitionField = "FD301", "forbidden-field-in-definition", Error, "DEF_FORBIDDEN", "verifier-rules.md §6 V2; current-profile.md §7.3", "a Form Definition key is a forbidden field name", Some("portable data must not carry this field: rename or remove it"), Active;
    ForbiddenSchemaName = "FD302", "forbidden-schema-name", Error, "PROOF_FORBIDDEN_NAME", "verifier-rules.md §4.2 steps 9-11, §6 V3", "a schema declares a forbidden property/required/dependentRequired name", Some("portable data must not carry this field: rename or remove it"), Active;

    // FD4xx: definition rules and fixtures
    FixtureCount = "FD400", "fixture-count", Error, "FIXTURE_COUNT", "verifier-rules.md §3.7 R3.9", "more than 32 positive or 32 negative fixtures", Some("at most 32 positive and 32 negative fixtures"), Active;
    DuplicateFixtureName = "FD401", "duplicate-fixture-name", Error, "FIXTURE_NAME_DUP", "verifier-rules.md §3.7 R3.10", "a fixture name is used twice across both lists", Some("give every fixture, positive and negative, its own name"), Active;
    InvalidFixturePath = "FD402", "invalid-fixture-path", Error, "FIXTURE_PATH", "verifier-rules.md §3.7 R3.11", "a fixture path fails the package path grammar", Some("use a relative package path of ASCII letters, digits, '.', '_', '-' and '/'"), Active;
    FixtureUnlisted = "FD403", "fixture-unlisted", Error, "FIXTURE_UNLISTED", "verifier-rules.md §7.1 R7.1, §7.2 R7.5", "a fixture path is not listed in the index", Some("list the fixture file in package-index.json (or fix the path)"), Active;
    FixtureMediaType = "FD404", "fixture-media-type", Error, "FIXTURE_MEDIA", "verifier-rules.md §7.1 R7.1", "a fixture is not listed as application/json", Some("list fixture files as application/json"), Active;
    FixtureStageWithoutSchema = "FD405", "fixture-stage-without-schema", Error, "FIXTURE_NO_STAGE_SCHEMA", "verifier-rules.md §7.1 R7.3-R7.4", "a positive fixture names a stage whose schema the definition lacks", Some("add the stage schema to the definition or drop the fixture path"), Active;
    NegativeStageWithoutSchema = "FD406", "negative-stage-without-schema", Error, "NEG_NO_STAGE_SCHEMA", "verifier-rules.md §7.2 R7.6", "a negative fixture names a stage whose schema the definition lacks", Some("add the stage schema to the definition or change the fixture's stage"), Active;
    UnsupportedNegativeStage = "FD407", "unsupported-negative-stage", Error, "NEG_STAGE", "verifier-rules.md §7.2 R7.6", "a negative fixture stage outside desired/observed/output", Some("use stage desired, observed or output"), Active;
    UnsupportedExpectedFailure = "FD408", "unsupported-expected-failure", Error, "NEG_EXPECTED", "verifier-rules.md §7.2 R7.7", "expectedFailure is not schema_validation_failed", Some("set expectedFailure to schema_validation_failed"), Active;
    FixtureWorkExceeded = "FD409", "fixture-work-exceeded", Error, "FIXTURE_WORK", "verifier-rules.md §4.7", "a fixture's instance-aware work estimate exceeds 16384", Some("shrink the fixture or the schema's fan-out: instance-aware work is limited to 16384"), Active;
    FixtureSchemaViolation = "FD410", "fixture-schema-violation", Error, "FIXTURE_INVALID", "verifier-rules.md §7.3", "a positive fixture does not satisfy its stage schema", Some("fix the fixture, or the schema if the fixture is right"), Active;
    NegativeFixturePassed = "FD411", "negative-fixture-passed", Error, "NEG_PASSED", "verifier-rules.md §7.2 R7.8", "a negative fixture satisfies its stage schema", Some("make the negative fixture violate its stage schema, or tighten the schema"), Active;
    InterfaceDocumentViolation = "FD412", "interface-document-violation", Error, "IFACE_DOC", "verifier-rules.md §3.6 R3.8", "a legacy interface document does not satisfy its documentSchema", Some("make interfaces[].document satisfy its documentSchema"), Active;
    DuplicateInterface = "FD413", "duplicate-interface", Error, "IFACE_DUP", "verifier-rules.md §3.6 R3.2", "two legacy interfaces share name@version", Some("declare each name@version once"), Active;
    InterfaceInputRule = "FD414", "interface-input-rule", Error, "IFACE_INPUT", "verifier-rules.md §3.6 R3.3-R3.7", "a legacy interface input breaks the literal/resource_uri rules", Some("a literal carries a value and no pointer; resource_uri carries neither; other sources carry no value; resourceUriInput names the one resource_uri input"), Active;
    ConstraintOrderedPair = "FD415", "constraint-ordered-pair", Error, "CONSTRAINT_ORDERED", "current-profile.md §6.2", "an orderedPair pointer does not name a required numeric schema", Some("point both orderedPair pointers at required integer or number properties"), Active;
    ConstraintUniqueBy = "FD416", "constraint-unique-by", Error, "CONSTRAINT_UNIQUEBY", "current-profile.md §6.2", "a uniqueBy list/member does not name an array of objects with a required scalar member", Some("point uniqueBy.list at an array of objects that require the scalar member"), Active;
    ConstraintRelation = "FD417", "constraint-relation", Error, "CONSTRAINT_RELATION", "current-profile.md §6.2 pass 2", "a constraint names a local pointer the desired schema does not declare as a relation", Some("name a pointer the desired schema declares as a relation (escaped with ~0/~1, list hops as /*)"), Active;
    RoleBindings = "FD418", "role-bindings", Error, "ROLE_BINDINGS", "verifier-rules.md §3.4 (withdrawn)", "a non-revision role with acceptedBindings (withdrawn: the current verifier accepts it)", Some("withdrawn: any role may accept bindings"), Removed;
    NegativeFixtureOverBudget = "FD419", "negative-fixture-over-budget", Note, "", "verifier-rules.md §4.7, §7.2 R7.8 (QUIRK); issue 22 item 9", "a negative fixture counts as failing only because its instance work estimate exceeds the budget, not because it was found to violate its schema", Some("make the negative fixture small enough to be validated (its work estimate at most 16384), so that it fails for the reason it is meant to"), Active;

    // FD5xx: relations (warnings; --deny-warnings makes them fail)
    RelationAtRoot = "FD500", "relation-at-root", Warning, "", "verifier-rules.md §8.3 step 2", "the desired schema root is itself reference-shaped", Some("move the reference under a named property"), Active;
    RelationDepth = "FD501", "relation-depth-exceeded", Warning, "", "verifier-rules.md §8.3 step 1", "relation derivation exceeded depth 32", Some("nest references at most 32 levels deep"), Active;
    MissingTargetContract = "FD502", "missing-target-contract", Warning, "", "verifier-rules.md §8.4; decision 0022", "a reference states no target contract", Some("declare x-takoform-target-formrefs or x-takoform-required-interface on the reference"), Active;
    ConflictingTargetContracts = "FD503", "conflicting-target-contracts", Warning, "", "verifier-rules.md §8.4", "a reference carries both target-contract annotations", Some("keep exactly one of x-takoform-target-formrefs and x-takoform-required-interface"), Active;
    MalformedTargetContract = "FD504", "malformed-target-contract", Warning, "", "verifier-rules.md §8.4", "a target-contract annotation is empty, malformed or incomplete", Some("list complete target identities (apiVersion, kind, definitionVersion, schemaDigest) or a complete interface (apiVersion, name, version, schemaDigest)"), Active;
    BindingNotAccepted = "FD505", "binding-not-accepted", Warning, "", "decision 0015 rule 8 step 1", "an x-takoform-binding names a contract absent from acceptedBindings", Some("add the binding contract to acceptedBindings or fix the x-takoform-binding name"), Active;
    NonConstReferenceIdentity = "FD506", "non-const-reference-identity", Warning, "", "decision 0015 rule 2; verifier-rules.md §8.2", "a reference-shaped object whose apiVersion or kind is not const is silently not a relation", Some("make apiVersion and kind `const`"), Active;
    HiddenReference = "FD507", "hidden-reference", Warning, "", "decision 0015 rule 2; verifier-rules.md §8.3", "a reference-shaped object behind $ref/$defs/allOf/anyOf/oneOf/additionalProperties/prefixItems, which hosts never enforce", Some("declare the reference directly under properties/items so hosts resolve and protect it"), Active;
    EdgeReferenceWithoutContract = "FD508", "historical-reference-without-contract", Note, "", "verifier-rules.md §8.1", "an edge v1alpha1 reference predates target contracts", Some("newer lanes require a target contract; add one when republishing"), Active;
    TargetFormRefIdentity = "FD509", "target-formref-identity-mismatch", Warning, "", "verifier-rules.md §8.7; current-profile.md §7.2", "a target FormRef of a reference names another apiVersion or kind than the reference's own consts", Some("list only target Forms of the reference's own apiVersion and kind (the consts of its apiVersion and kind properties)"), Active;

    // FD6xx: revocation statements and checkpoints (validate-revocation*), single documents (check), the reference's conformance suite
    UnsupportedRevocationApiVersion = "FD600", "unsupported-revocation-api-version", Error, "REVOCATION_*", "verifier-rules.md §11.1-§11.2; current-profile.md §11.3", "a revocation statement or checkpoint whose apiVersion is not trust.forms.takoform.com/v1alpha1 or /v1 (or that is not an object with a string apiVersion)", Some("use apiVersion trust.forms.takoform.com/v1 (or the legacy trust.forms.takoform.com/v1alpha1)"), Active;
    RevocationSchemaViolation = "FD601", "revocation-schema-violation", Error, "REVOCATION_*", "verifier-rules.md §11.1; current-profile.md §11.3", "a revocation statement does not satisfy its profile's Draft 2020-12 schema", Some("make the statement match form-package-revocation.schema.json of its profile (effects all true, a listed reasonCode, an https advisoryUrl)"), Active;
    RevocationDecode = "FD602", "revocation-decode", Error, "REVOCATION_*", "verifier-rules.md §11.1-§11.2 (typed decode)", "a revocation sequence the schema accepts is not a plain unsigned 64-bit integer literal (typed decode)", Some("write sequences as plain integers, e.g. 2 not 2.0 or 2e0"), Active;
    RevocationFormRefGroup = "FD603", "revocation-formref-reserved-group", Error, "REVOCATION_*", "current-profile.md §11.3, §2.4 (NamespacedFormGroup)", "a current-profile revocation FormRef names a reserved or unsupported group", Some("name the revoked package by its own versionless reverse-DNS group, not a takoform.com trust or package group"), Active;
    CheckpointSchemaViolation = "FD610", "checkpoint-schema-violation", Error, "REVOCATION_*", "verifier-rules.md §11.2; current-profile.md §11.3", "a revocation checkpoint does not satisfy its profile's Draft 2020-12 schema", Some("make the checkpoint match form-package-revocation-checkpoint.schema.json of its profile (sequence 0 is only the empty genesis)"), Active;
    CheckpointEntryCount = "FD611", "checkpoint-entry-count", Error, "REVOCATION_*", "verifier-rules.md §11.2", "a checkpoint's number of cumulative entries differs from its sequence", Some("a checkpoint at sequence N lists exactly N cumulative entries"), Active;
    CheckpointPreviousDigest = "FD612", "checkpoint-previous-digest", Error, "REVOCATION_*", "verifier-rules.md §11.2", "sequence 1 names a predecessor, or a later sequence names none", Some("sequence 1 of the legacy profile has previousCheckpointDigest null; every later checkpoint names its predecessor's canonical digest"), Active;
    CheckpointEntrySequence = "FD613", "checkpoint-entry-sequence", Error, "REVOCATION_*", "verifier-rules.md §11.2", "an entry's sequence is not its position + 1", Some("number entries 1, 2, 3, … in order"), Active;
    CheckpointDuplicateStatementVersion = "FD614", "checkpoint-duplicate-statement-version", Error, "REVOCATION_*", "verifier-rules.md §11.2", "two checkpoint entries share a statementVersion", Some("every revocation statement has its own statementVersion"), Active;
    CheckpointDuplicateStatementDigest = "FD615", "checkpoint-duplicate-statement-digest", Error, "REVOCATION_*", "verifier-rules.md §11.2", "two checkpoint entries share a statementDigest", Some("list each revocation statement once"), Active;
    CheckpointFinalVersion = "FD616", "checkpoint-final-version", Error, "REVOCATION_*", "verifier-rules.md §11.2", "the last entry's statementVersion differs from checkpointVersion", Some("set checkpointVersion to the statementVersion of the last entry"), Active;
    CheckpointEntryFormRefGroup = "FD617", "checkpoint-entry-formref-reserved-group", Error, "REVOCATION_*", "current-profile.md §11.3, §2.4 (NamespacedFormGroup)", "a current-profile checkpoint entry's FormRef names a reserved or unsupported group", Some("name the revoked package by its own versionless reverse-DNS group"), Active;
    InvalidCheckpointPin = "FD620", "invalid-checkpoint-pin", Error, "REVOCATION_*", "verifier-rules.md §11.2 (AdvanceRevocationCheckpoint); current-profile.md §11.3", "the previous pin is malformed: unknown members, an unsupported profile, a non-canonical digest, or a legacy pin at sequence 0", Some("pass the pin exactly as a previous advance printed it: {checkpointApiVersion?, sequence, digest, entriesDigest}"), Active;
    CheckpointFirstPin = "FD621", "checkpoint-first-pin", Error, "REVOCATION_*", "verifier-rules.md §11.2; current-profile.md §11.3", "with no previous pin, the checkpoint is not a first trusted one (legacy sequence 1, or the current sequence 0 genesis)", Some("start from the first checkpoint of the chain, or pass --previous-pin"), Active;
    CheckpointSequenceNotNext = "FD622", "checkpoint-sequence-not-next", Error, "REVOCATION_*", "verifier-rules.md §11.2", "the checkpoint's sequence is not the pinned sequence + 1 (rollback, replay or a skipped checkpoint)", Some("advance one checkpoint at a time from the pinned one; never accept an older or repeated checkpoint"), Active;
    CheckpointFork = "FD623", "checkpoint-fork", Error, "REVOCATION_*", "verifier-rules.md §11.2", "the checkpoint's previousCheckpointDigest is not the pinned digest (a fork)", Some("the checkpoint must name the pinned checkpoint as its predecessor: do not trust a forked chain"), Active;
    CheckpointPrefixRewritten = "FD624", "checkpoint-prefix-rewritten", Error, "REVOCATION_*", "verifier-rules.md §11.2", "the checkpoint's first pinned-sequence entries differ from the pinned entries digest", Some("cumulative entries are append-only: a rewritten prefix is not a valid successor"), Active;
    CheckpointProfileMismatch = "FD625", "checkpoint-profile-mismatch", Error, "REVOCATION_*", "current-profile.md §11.3", "the checkpoint's profile differs from the pinned profile", Some("a chain never crosses profiles: advance a legacy pin with legacy checkpoints, a current pin with current ones"), Active;
    CheckpointGenesisPin = "FD626", "checkpoint-genesis-pin", Error, "REVOCATION_*", "current-profile.md §11.3", "a current-profile sequence-0 pin does not identify the exact signed genesis", Some("pin the genesis by the digest of its canonical form (`form-package validate-revocation-checkpoint --advance GENESIS`)"), Active;
    UnrecognizedDocument = "FD630", "unrecognized-document", Error, "", "issue 12 (check); T1 B5 (relations)", "a JSON document of a kind the command does not take: `check` recognises a Form Definition, package index, revocation statement or checkpoint, Binding or Interface Definition; `relations` takes a Form Definition (and `--instance` a JSON object)", Some("give a document of a kind the command takes (its apiVersion and kind say which; `relations` takes a Form Definition or a package directory), or verify a package directory with `verify`"), Active;
    ContractSchemaViolation = "FD631", "contract-schema-violation", Error, "", "current-profile.md §12; shared/spec/schemas (binding-definition, interface-definition)", "a Binding or Interface Definition does not satisfy its published Draft 2020-12 schema", Some("make the document match binding-definition-v1alpha1/-v1alpha2 or interface-definition-v1alpha1"), Active;
    UnsupportedContractApiVersion = "FD632", "unsupported-contract-api-version", Error, "", "current-profile.md §12", "a Binding or Interface Definition apiVersion names no published schema", Some("use bindings.takoform.com/v1alpha1, bindings.takoform.com/v1alpha2 or interfaces.takoform.com/v1alpha1"), Active;
    ConformanceManifest = "FD640", "conformance-manifest", Error, "", "verifier-rules.md §11.5", "the conformance manifest is not the reference's format (schemaVersion 1, non-empty positive and negative lists, unique names, known operations)", Some("write manifest.json as the reference's conformance runner reads it"), Active;
    // FD65x-FD67x: compatibility between two versions of a Form (`form-package compat`, issue 20)
    DesiredSchemaBreaking = "FD650", "desired-schema-breaking", Note, "", "versioning-rules.md V3, V4; issue 20", "the new desired schema refuses a document the old one accepts (the witness is that document): a breaking change", Some("nothing to do when the version is a new major (1.x) or minor (0.x); otherwise keep the old documents valid, or bump the version"), Active;
    DesiredSchemaUndecided = "FD651", "desired-schema-undecided", Note, "", "versioning-rules.md V3, V4; issue 20", "whether the new desired schema accepts every document of the old one could not be decided: counted as breaking", Some("bump as for a breaking change, or simplify the schema node named so the inclusion can be proved"), Active;
    DesiredSchemaWidened = "FD652", "desired-schema-widened", Note, "", "versioning-rules.md V3, V4; issue 20", "the new desired schema accepts every old document and more (proved; an example is given): an addition", Some("a minor bump fits; nothing else to do"), Active;
    DesiredSchemaEquivalent = "FD653", "desired-schema-equivalent", Note, "", "versioning-rules.md V3, V4; issue 20", "the desired schemas differ in bytes but accept the same documents (both inclusions proved): documentation", Some("a patch bump fits"), Active;
    ImmutableFieldAdded = "FD654", "immutable-field-added", Note, "", "versioning-rules.md V3; issue 20", "immutableFields gained a pointer: an in-place update of that field now forces replacement (breaking)", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    ImmutableFieldRemoved = "FD655", "immutable-field-removed", Note, "", "versioning-rules.md V3; issue 20", "immutableFields lost a pointer: the field can now be updated in place (a relaxation)", Some("a minor bump fits"), Active;
    CapabilityRemoved = "FD656", "capability-removed", Note, "", "versioning-rules.md V3; issue 20", "a lifecycle capability or an interface operation was removed (breaking)", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    CapabilityAdded = "FD657", "capability-added", Note, "", "versioning-rules.md V3; issue 20", "a lifecycle capability or an interface operation was added (an addition)", Some("a minor bump fits"), Active;
    ContractEntryRemoved = "FD658", "contract-entry-removed", Note, "", "versioning-rules.md V3; decision 0015; issue 20", "an entry of interfaces, providedInterfaces or acceptedBindings was removed (breaking)", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    ContractEntryChanged = "FD659", "contract-entry-changed", Note, "", "versioning-rules.md V3; decision 0015; issue 20", "an entry of interfaces, providedInterfaces or acceptedBindings changed (breaking)", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    ContractEntryAdded = "FD660", "contract-entry-added", Note, "", "versioning-rules.md V3; decision 0015; issue 20", "an entry of interfaces, providedInterfaces or acceptedBindings was added (an addition)", Some("a minor bump fits"), Active;
    RoleChanged = "FD661", "role-changed", Note, "", "versioning-rules.md V3; issue 20", "the Form's role changed (breaking)", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    DeclaredMemberRemoved = "FD662", "declared-member-removed", Note, "", "versioning-rules.md V5 (an inference from decisions 0025, 0030)", "a member of the observed or output schema was removed: breaking by our reading of decisions 0025 and 0030, not a rule", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    DeclaredMemberRetyped = "FD663", "declared-member-retyped", Note, "", "versioning-rules.md V5 (an inference from decisions 0025, 0030)", "a member of the observed or output schema changed its type (its schema is not equivalent): breaking by our reading of decisions 0025 and 0030, not a rule", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    DeclaredMemberAdded = "FD664", "declared-member-added", Note, "", "versioning-rules.md V5 (an inference from decisions 0025, 0030)", "a member was added to the observed or output schema: an addition by our reading of decisions 0025 and 0030, not a rule", Some("a minor bump fits"), Active;
    DocumentationChanged = "FD665", "documentation-changed", Note, "", "versioning-rules.md V1, V3; issue 20", "a title, description, status, x- annotation or fixture changed: documentation (a patch)", Some("a patch bump fits"), Active;
    DefinitionMemberChanged = "FD666", "definition-member-changed", Note, "", "versioning-rules.md V3 (unproved means breaking); issue 20", "another member of the definition changed (constraints, requiresHostApi, a stage schema outside its members, …): no rule proves it compatible, so it counts as breaking", Some("bump as for a breaking change (major in 1.x, minor in 0.x)"), Active;
    DesiredSchemaCompatible = "FD667", "desired-schema-compatible", Note, "", "versioning-rules.md V3, V4; issue 20", "the new desired schema accepts every old document (proved), but whether it accepts more could not be decided: counted as a possible addition", Some("a minor bump fits; to learn whether it widens, simplify the schema node named so the converse can be decided"), Active;
    BumpTooSmall = "FD670", "bump-too-small", Error, "", "versioning-rules.md V2, V3; issue 20", "the new definitionVersion bumps less than the changes require", Some("bump the version the changes require (see the change records), or undo the change"), Active;
    FormRefReused = "FD671", "formref-reused", Error, "", "versioning-rules.md V1", "the same (group, kind, definitionVersion) names different bytes: an occupied FormRef was reused", Some("publish the new bytes under a new definitionVersion; never change published bytes"), Active;
    MajorNotEarned = "FD672", "major-not-earned", Warning, "", "versioning-rules.md V4", "a new major whose every change is proved compatible: a minor (or patch) in disguise", Some("bump the minor (or the patch) instead, or say in the release notes why the major is wanted"), Active;
    PreReleaseVersion = "FD673", "pre-release-version", Note, "", "versioning-rules.md V2, V3; SemVer 2.0.0 §9", "a side is a pre-release version: SemVer makes no compatibility promise, so the bump is reported but not required", Some("nothing to do; the bump the changes would require is shown"), Active;
    ReIdentification = "FD674", "re-identification", Note, "", "versioning-rules.md V1", "OLD and NEW are in different groups (or kinds): a new identity, compared and reported, no bump asked", Some("nothing to do when the rename is intended; it re-identifies every Form of the group"), Active;
    VersionNotIncreasing = "FD675", "version-not-increasing", Error, "", "versioning-rules.md V1; SemVer 2.0.0 §11", "NEW's definitionVersion does not follow OLD's in SemVer precedence", Some("give NEW a definitionVersion greater than OLD's (or swap OLD and NEW)"), Active;
    InvalidDefinitionVersion = "FD676", "invalid-definition-version", Error, "", "versioning-rules.md V2, V3; SemVer 2.0.0 §2", "a definitionVersion is not a SemVer 2.0.0 version, so no bump can be read from it", Some("write MAJOR.MINOR.PATCH (with an optional -pre-release)"), Active;
    NothingToCompare = "FD677", "nothing-to-compare", Note, "", "issue 20 (--baseline)", "no older version of this (group, kind) is in BASE: a new kind, nothing to compare", Some("nothing to do for a first release; check BASE is the published tree"), Active;
    SideRefused = "FD678", "side-refused", Error, "", "issue 20; verifier-rules.md", "a side of the pair was refused by verification, so the pair was not compared", Some("fix the refused package (its own findings are reported) and run again"), Active;
    // FD7xx: a whole Form Family and its contracts (`form-package family`, issue 13)
    ContractDigestConflict = "FD701", "contract-digest-conflict", Error, "", "issue 13; decision 0014 (contract bytes are immutable)", "two loaded contracts share name and version but differ in canonical digest", Some("a name@version names one contract: publish the changed contract under a new version"), Active;
    RelationTargetNotLoaded = "FD702", "relation-target-not-loaded", Error, "", "decision 0015 rules 3 and 5; verifier-rules.md §8.7", "a relation's target (apiVersion, kind) is not a Form in the family", Some("add the target Form's package to the PATHs, run with --partial for a snapshot known to be incomplete, or --allow-external GROUP for a group kept elsewhere on purpose"), Active;
    RelationTargetUnchecked = "FD703", "relation-target-unchecked", Note, "", "decision 0015 rule 3; issue 13 (--partial)", "cannot be checked: the target kind is not loaded (--partial)", Some("load the missing Form to check this relation"), Active;
    RelationTargetExternal = "FD704", "relation-target-external", Note, "", "issue 13 (--allow-external)", "the target's group is accepted as outside the family (--allow-external)", Some("nothing to do: the group was allowed on purpose"), Active;
    TargetFormRefNotInFamily = "FD705", "target-formref-not-in-family", Error, "", "verifier-rules.md §8.4, §8.7; decision 0022", "no FormRef of x-takoform-target-formrefs is a loaded Form exactly (digest included)", Some("list the target Form's exact FormRef (apiVersion, kind, definitionVersion, schemaDigest), or load the package it names"), Active;
    TargetInterfaceNotProvided = "FD706", "target-interface-not-provided", Error, "", "verifier-rules.md §8.4, §8.7; decision 0022", "the target Form does not declare the required Interface (name, version, schemaDigest) in providedInterfaces", Some("declare the Interface in the target's providedInterfaces with the same name, version and schemaDigest, or require the one it provides"), Active;
    RequiredInterfaceNotLoaded = "FD707", "required-interface-not-loaded", Error, "", "verifier-rules.md §8.4; issue 13", "the required Interface Definition is not loaded with that name, version and digest", Some("add the Interface Definition to the PATHs (its canonical digest must equal the schemaDigest named)"), Active;
    BindingNotAcceptedBySource = "FD710", "binding-not-accepted-by-source", Error, "", "decision 0015 rule 8 step 1 (invalid_argument)", "the source's acceptedBindings does not carry the relation's x-takoform-binding contract", Some("add the BindingRef to acceptedBindings or fix the x-takoform-binding name"), Active;
    BindingContractNotLoaded = "FD711", "binding-contract-not-loaded", Error, "", "decision 0015 rule 8 step 2 (unsupported_capability)", "no loaded Binding Definition has exactly the accepted BindingRef's name, version and canonical digest", Some("load the Binding Definition the Form accepts, or accept the one that is published (its digest)"), Active;
    BindingSourceRole = "FD712", "binding-source-role-mismatch", Error, "", "decision 0015 rule 8 step 3 (invalid_argument)", "the source Form's role differs from the Binding's sourceRole", Some("accept the binding only on Forms of the Binding's sourceRole"), Active;
    BindingTargetFormNotAllowed = "FD713", "binding-target-form-not-allowed", Error, "", "decision 0015 rule 8 step 4 (invalid_argument)", "the relation's target Form is not in the Binding's allowedTargetForms", Some("point the binding list at an allowed target Form, or allow the Form in the Binding (a new contract version)"), Active;
    BindingTargetInterfaceNotProvided = "FD714", "binding-target-interface-not-provided", Error, "", "decision 0015 rule 8 step 5 (invalid_argument)", "the target Form does not declare the Binding's targetInterface in providedInterfaces", Some("declare the Binding's targetInterface (name, version, schemaDigest) on the target Form"), Active;
    AcceptedBindingRoleMismatch = "FD720", "accepted-binding-role-mismatch", Error, "", "decision 0015 rule 8 step 3; issue 13", "a Form accepts a Binding whose sourceRole is not the Form's role, so no binding of it can verify", Some("accept the Binding only on Forms of its sourceRole"), Active;
    AcceptedBindingUnsatisfiable = "FD721", "accepted-binding-unsatisfiable", Error, "", "decision 0015 rule 8 steps 4-5, Consequences", "no loaded Form in the Binding's allowedTargetForms declares its targetInterface, so no binding of it could ever verify", Some("declare the targetInterface on an allowed target Form, or allow the Form that declares it (a new Binding version)"), Active;
    AcceptedBindingNotLoaded = "FD722", "accepted-binding-not-loaded", Error, "", "decision 0015 rule 8 step 2; issue 13", "no loaded Binding Definition matches an acceptedBindings entry (and no derived relation names it)", Some("load the Binding Definition the Form accepts, or accept the one that is published (its digest)"), Active;
    CandidateSetInvalid = "FD730", "candidate-set-invalid", Error, "", "issue 13", "a candidate set has an unknown format or a malformed entry", Some("use format takoform.binding-candidates@v1 or takoform.interface-candidates@v1 with {name, version, schemaDigest} entries"), Active;
    CandidateDigestMismatch = "FD731", "candidate-digest-mismatch", Error, "", "issue 13", "a candidate set lists a digest that differs from the loaded contract of that name and version", Some("regenerate the candidate set from the contracts it lists"), Active;
    CandidateNotLoaded = "FD732", "candidate-not-loaded", Warning, "", "issue 13", "a candidate set lists a contract that is not under the PATHs", Some("add the listed contract to the PATHs or drop it from the candidate set"), Active;
    FamilyFormNotLoaded = "FD740", "family-form-not-loaded", Warning, "", "issue 13", "a package's Form Definition could not be read, so it takes no part in the family checks", Some("fix the package (see its verify findings)"), Active;
    // FD8xx: publisher trust (issue 15: `trust verify-bundle | verify-checkpoint | check-not-revoked`)
    TrustInvalidPolicy = "FD800", "invalid-publisher-policy", Error, "", "issue 15; takoform trust/policy.go PublisherPolicy", "the publisher policy is not one exact trust.forms.takoform.com/v1alpha1 PublisherPolicy", Some("write the six members exactly: apiVersion, kind, oidcIssuer, sourceRepository, workflow (inside sourceRepository), ref (refs/<namespace>/<name>, no wildcard)"), Active;
    TrustMalformedBundle = "FD801", "malformed-sigstore-bundle", Error, "", "issue 15; Sigstore bundle v0.3", "the bundle is not a well-formed Sigstore v0.3 message-signature bundle", Some("pass the .sigstore.json bundle the signer wrote (v0.3, certificate, messageSignature)"), Active;
    TrustMalformedRoot = "FD802", "malformed-trusted-root", Error, "", "issue 15; Sigstore trusted root v0.1", "the trusted root does not parse as a Sigstore trusted root", Some("pass a trusted_root.json (mediaType application/vnd.dev.sigstore.trustedroot+json;version=0.1)"), Active;
    TrustMissingTransparency = "FD803", "missing-transparency-evidence", Error, "", "issue 15; corpus/trust/README.md", "the bundle has no transparency-log entry, or an entry without an inclusion proof", Some("sign with a client that records the entry and its inclusion proof (cosign v2+ bundles v0.3)"), Active;
    TrustCertificateChain = "FD804", "certificate-chain-invalid", Error, "", "issue 15; RFC 5280 §6", "the leaf certificate does not chain to a Fulcio CA of the trusted root valid at the signing time", Some("use the trusted root that was current when the bundle was signed"), Active;
    TrustCertificateTimestamp = "FD805", "certificate-timestamp-invalid", Error, "", "issue 15; RFC 6962 §3.2", "the leaf certificate has no valid SCT from a CT log of the trusted root", Some("use the trusted root whose CT logs issued the certificate's SCT"), Active;
    TrustSignature = "FD806", "message-signature-invalid", Error, "", "issue 15; Sigstore message signature", "the signature does not verify over the subject's SHA-256 (or the bundle's digest is another subject's)", Some("pass the exact subject that was signed (for a package: the package digest)"), Active;
    TrustLogEntry = "FD807", "log-entry-invalid", Error, "", "issue 15; Rekor hashedrekord, signed entry timestamp", "a transparency-log entry is not of this signature, names no Rekor log of the root, or its signed entry timestamp does not verify", Some("the bundle was altered or belongs to another signature: use the bundle the signer wrote"), Active;
    TrustInclusionProof = "FD808", "inclusion-proof-invalid", Error, "", "issue 15; RFC 6962 §2.1.1 (RFC 9162 §2.1.3.2)", "a log entry's Merkle inclusion proof does not lead to its root hash", Some("the bundle was altered: use the bundle the signer wrote"), Active;
    TrustLogCheckpoint = "FD809", "log-checkpoint-invalid", Error, "", "issue 15; transparency-dev signed note checkpoint", "a log entry's signed checkpoint does not parse, disagrees with the proof, or its signature does not verify under the Rekor key", Some("the bundle was altered: use the bundle the signer wrote"), Active;
    TrustTimestamp = "FD810", "rfc3161-timestamp-invalid", Error, "", "issue 15; RFC 3161 §2.4.2, RFC 5652 §5.4", "an RFC 3161 timestamp does not verify under a timestamp authority of the trusted root, or does not cover this signature", Some("use the trusted root whose timestamp authority issued the token"), Active;
    TrustThreshold = "FD811", "trust-threshold-unmet", Error, "", "issue 15 (thresholds: 1 log entry, 1 timestamp, 1 SCT)", "fewer verified log entries, verified times or SCTs than the thresholds", Some("the bundle lacks evidence: re-sign with a client that records it"), Active;
    TrustIdentity = "FD812", "publisher-identity-mismatch", Error, "", "issue 15; Fulcio certificate extensions (OID 1.3.6.1.4.1.57264.1)", "the certificate identity differs from the policy (issuer, SAN workflow@ref, repository, ref, build signer) or a commit extension is not 40 lowercase hex", Some("check the policy names this publisher's workflow and ref exactly"), Active;
    TrustInvalidCheckpoint = "FD813", "invalid-revocation-checkpoint", Error, "", "issue 15; revocation-checkpoint-v1", "the revocation checkpoint is not canonical, not valid, does not extend the previous pin, or the query is not of its profile", Some("pass the checkpoint bytes as published and the pin you kept from the last one"), Active;
    TrustRevoked = "FD814", "package-revoked", Error, "", "issue 15; revocation-checkpoint-v1", "the verified revocation checkpoint revokes this package", Some("do not install it; see the revocation statement"), Active;
    TrustInputError = "FD815", "trust-input-error", Error, "", "issue 15", "a trust input file could not be read, or is not what its flag expects (FormRef, pin, package)", Some("check the path and the file's contents"), Active;

    // FD9xx: the command line, the walk over a tree and the configuration file
    PathNotFound = "FD900", "path-not-found", Error, "", "docs/src/commands/verify.md (Nothing skipped in silence); issue 14 item 2", "a PATH given to verify or family, or a FILE given to check, does not exist (the run exits 2; every other PATH or FILE is still verified or checked)", Some("check the spelling of the PATH; every other PATH was still verified and reported"), Active;
    UnreadableDirectory = "FD901", "unreadable-directory", Error, "", "src/discover.rs; issue 14 item 1", "a directory in a tree could not be read, so packages below it could not be found", Some("make the directory readable (chmod u+rx) or exclude it in form-package.toml"), Active;
    SymlinkedDirectory = "FD902", "symlinked-directory", Error, "", "src/discover.rs; verifier-rules.md §1.2 R1.1; issue 14 item 1", "a symlink to a directory inside a tree is not followed (a package must be a real directory)", Some("name the link's target directly, replace the link with the directory, or exclude it in form-package.toml"), Active;
    ConfigInvalid = "FD903", "invalid-config", Error, "", "docs/src/configuration.md; issue 14 item 7", "form-package.toml is not valid TOML, has an unknown key, or a value of the wrong type", Some("keys: select, ignore, warn, exit-zero, statistics, exclude, no-ignore (see docs/src/configuration.md)"), Active;
    FixtureFileMissing = "FD904", "fixture-file-missing", Error, "", "verifier-rules.md §7.1 R7.1, §7.2 R7.5; issue 14 item 3", "a fixture path the definition names is not a file in the package directory", Some("add the fixture file at that path, or fix the path in definition.json"), Active;
    UnreadableFile = "FD905", "unreadable-file", Error, "", "docs/src/commands/check.md; issue 12 part 3", "a FILE given to check is a directory or cannot be read (the run exits 2; every other FILE is still checked)", Some("name a JSON document (use `verify` for a package directory), or make the file readable"), Active;
    NoFixtureRan = "FD906", "fixtures-not-run", Warning, "", "docs/src/commands/check.md; issue 22 item 8", "check of a lone Form Definition ran no fixture: none of the fixture files it names is beside it", Some("put the fixture files beside the definition at the paths it names, or verify the package directory (`form-package verify DIR`)"), Active;
}

impl Code {
    /// True for an integrity finding: the package's bytes are not the bytes
    /// its index vouches for, or the index does not describe the directory
    /// (digest: `FD016`, `FD123`; size: `FD015`; listing: `FD018`,
    /// `FD019`; strict I-JSON: `FD011`, `FD012`, `FD020`; a payload that
    /// could not be read whole or changed while read: `FD014`; a root that
    /// changed during the run: `FD003`). No configuration file the user did
    /// not name on the command line hides, demotes or zeroes the exit status
    /// of these (issue 22 item 4; [`crate::select::Settings::shows`]).
    pub fn is_integrity(self) -> bool {
        matches!(
            self,
            Code::RootChanged
                | Code::InvalidUtf8
                | Code::InvalidIJson
                | Code::UnreadablePayload
                | Code::PayloadSizeMismatch
                | Code::PayloadDigestMismatch
                | Code::UnlistedFile
                | Code::MissingListedFile
                | Code::InvalidJsonPayload
                | Code::SchemaDigestMismatch
        )
    }
}

impl std::str::FromStr for Code {
    type Err = String;
    /// Accepts the id (`FD213`, case-insensitive) or the kebab name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TABLE
            .iter()
            .find(|i| i.id.eq_ignore_ascii_case(s) || i.name == s)
            .map(|i| i.code)
            .ok_or_else(|| format!("unknown diagnostic code {s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for (i, info) in TABLE.iter().enumerate() {
            assert_eq!(info.code as usize, i, "{}", info.id);
            assert!(
                info.id.len() == 5 && info.id.starts_with("FD"),
                "{}",
                info.id
            );
            assert_eq!(info.code.info().id, info.id);
            for bad in ["no-", "use-", "prefer-", "avoid-", "disallow-"] {
                assert!(!info.name.starts_with(bad), "{}", info.name);
            }
        }
        let mut ids: Vec<_> = TABLE.iter().map(|i| i.id).collect();
        let sorted = ids.clone();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids, sorted, "ids unique and in order");
        let mut names: Vec<_> = TABLE.iter().map(|i| i.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "names unique");
    }

    #[test]
    fn every_code_has_a_help_line_and_a_spec_section() {
        for info in TABLE {
            assert!(
                info.help.is_some_and(|h| !h.is_empty()),
                "{} has no help",
                info.id
            );
            assert!(
                !info.spec_ref.is_empty() && !info.summary.is_empty(),
                "{}",
                info.id
            );
        }
    }

    #[test]
    fn parses_ids_and_names() {
        assert_eq!("fd213".parse::<Code>(), Ok(Code::OpenObjectSchema));
        assert_eq!(
            "open-object-schema".parse::<Code>(),
            Ok(Code::OpenObjectSchema)
        );
        assert!("FD999".parse::<Code>().is_err());
    }
}
