/// Encodes an `Encodable` value as one line of JSON, with object keys in the
/// order the value's `encode(to:)` writes them: the `--json` output of every
/// command is a documented contract, and a reader (or a person) finds the
/// keys where the docs show them. Foundation's JSONEncoder promises no key
/// order (only `.sortedKeys`) and spells numbers its own way.
///
/// Spelling: `{"a": 1, "b": [1, 2]}` (a space after each colon and comma);
/// Double and Float as float32's shortest text (JSONText.number), FixedDecimal
/// with its places, nil as null (`encodeNil`), an absent optional as no key
/// (`encodeIfPresent`).
package struct JSONLineEncoder {
    package init() {}

    /// The JSON text of `value` on one line (no newline at the end).
    package func encode(_ value: some Encodable) throws -> String {
        let root = JSONNode()
        try root.set(value, codingPath: [])
        return root.text
    }

    /// `encode` for the line types of this folder, which cannot fail: the
    /// containers here never throw, and those types' `encode(to:)` only call them.
    package func line(_ value: some Encodable) -> String {
        try! encode(value)
    }
}

/// One value of the tree being encoded; containers add children in order.
final class JSONNode {
    enum Content {
        case unset
        case literal(String)
        case object([(key: String, value: JSONNode)])
        case array([JSONNode])
    }

    var content = Content.unset

    /// The value's JSON: scalars the encoder spells itself, the rest by their
    /// own `encode(to:)`.
    func set(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let value as FixedDecimal: content = .literal(value.text)
        case let value as Double: content = .literal(JSONText.number(value))
        case let value as Float: content = .literal(JSONText.number(value))
        case let value as String: content = .literal(JSONText.quoted(value))
        case let value as Bool: content = .literal(value ? "true" : "false")
        case let value as Int: content = .literal(String(value))
        default: try value.encode(to: JSONNodeEncoder(node: self, codingPath: codingPath))
        }
    }

    func append(key: String) -> JSONNode {
        let child = JSONNode()
        if case .object(var fields) = content {
            fields.append((key, child))
            content = .object(fields)
        } else {
            content = .object([(key, child)])
        }
        return child
    }

    func appendItem() -> JSONNode {
        let child = JSONNode()
        if case .array(var items) = content {
            items.append(child)
            content = .array(items)
        } else {
            content = .array([child])
        }
        return child
    }

    var text: String {
        switch content {
        case .unset: return "null"
        case .literal(let text): return text
        case .object(let fields):
            return "{" + fields.map { "\(JSONText.quoted($0.key)): \($0.value.text)" }.joined(separator: ", ") + "}"
        case .array(let items):
            return "[" + items.map(\.text).joined(separator: ", ") + "]"
        }
    }
}

/// The Encoder a value's `encode(to:)` writes into one JSONNode through.
struct JSONNodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.append(key: key.stringValue).content = .literal("null") }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.append(key: key.stringValue).set(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        JSONNodeEncoder(node: node.append(key: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONNodeEncoder(node: node.append(key: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONNodeEncoder(node: node.append(key: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONNodeEncoder(node: node.append(key: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    mutating func encodeNil() throws { node.appendItem().content = .literal("null") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.appendItem().set(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        JSONNodeEncoder(node: node.appendItem(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONNodeEncoder(node: node.appendItem(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONNodeEncoder(node: node.appendItem(), codingPath: codingPath)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .literal("null") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.set(value, codingPath: codingPath)
    }
}

extension KeyedEncodingContainer {
    /// `value`, or null when it is nil: for the keys the `--json` contracts
    /// always carry (`encodeIfPresent` leaves an absent optional's key out).
    package mutating func encodeOrNull(_ value: (some Encodable)?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
