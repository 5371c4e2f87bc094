/// The EXIF Orientation tag (TIFF tag 0x0112): how a camera stored a
/// picture relative to the way it is meant to be seen, named here by the
/// transform that shows it upright (the transposes Pillow's
/// `ImageOps.exif_transpose` applies for the same values).
enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case identity = 1
    /// 2: mirror left to right.
    case flipHorizontal = 2
    /// 3: turn half a turn.
    case rotate180 = 3
    /// 4: mirror top to bottom.
    case flipVertical = 4
    /// 5: mirror across the main diagonal (top-left to bottom-right).
    case transpose = 5
    /// 6: turn a quarter turn clockwise.
    case rotateClockwise = 6
    /// 7: mirror across the other diagonal (top-right to bottom-left).
    case transverse = 7
    /// 8: turn a quarter turn counter-clockwise.
    case rotateCounterClockwise = 8

    /// The orientation a tag value stands for; values outside 1-8 (0, 9 and
    /// up) are not orientations, and mean the picture is shown as stored.
    init(tagValue: Int) {
        self = ExifOrientation(rawValue: tagValue) ?? .identity
    }

    /// Whether the upright picture's width is the stored height.
    var swapsSides: Bool { rawValue >= 5 }
}
