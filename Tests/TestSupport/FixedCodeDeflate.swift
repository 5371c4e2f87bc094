/// A zlib stream written as the smallest PNG encoders write it: every byte a
/// literal with deflate's fixed codes, in one block, never a stored block.
/// Incompressible rows then come out about 5% longer than they are.
package enum FixedCodeDeflate {
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.write(0b1, count: 1)   // BFINAL
        bits.write(0b01, count: 2)  // BTYPE: fixed codes
        for byte in bytes {
            if byte < 144 {
                bits.writeCode(0x30 + UInt32(byte), length: 8)
            } else {
                bits.writeCode(0x190 + UInt32(byte) - 144, length: 9)
            }
        }
        bits.writeCode(0, length: 7)  // end of block (256)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        return [0x78, 0x01] + bits.finished + [24, 16, 8, 0].map { UInt8(adler >> UInt32($0) & 0xFF) }
    }

    /// Deflate's bit order: values from the lowest bit, Huffman codes from the highest.
    package struct BitWriter {
        package var bytes: [UInt8] = []
        package var current: UInt32 = 0, filled: UInt32 = 0

        package mutating func write(_ value: UInt32, count: UInt32) {
            for bit in 0..<count { push(value >> bit & 1) }
        }

        package mutating func writeCode(_ code: UInt32, length: UInt32) {
            for bit in (0..<length).reversed() { push(code >> bit & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << filled
            filled += 1
            if filled == 8 { flush() }
        }

        package mutating func flush() {
            bytes.append(UInt8(current))
            current = 0
            filled = 0
        }

        package var finished: [UInt8] {
            var copy = self
            if copy.filled > 0 { copy.flush() }
            return copy.bytes
        }
    }
}
