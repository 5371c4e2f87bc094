import DigitKit
import Testing
import TestSupport

@Suite("Region of interest")
struct RegionOfInterestTests {
    @Test("the default is the centre square half the shorter side")
    func defaultRegion() throws {
        #expect(try RegionOfInterest.default.rectangle(inFrameWidth: 640, height: 480) == PixelRectangle(x: 200, y: 120, width: 240, height: 240))
        #expect(try RegionOfInterest.default.rectangle(inFrameWidth: 1, height: 1) == PixelRectangle(x: 0, y: 0, width: 1, height: 1))
    }

    @Test("center:F and X,Y,W,H parse; a box must fit the frame")
    func parsing() throws {
        #expect(try RegionOfInterest(parsing: "center:1") == .centre(fraction: 1))
        #expect(try RegionOfInterest(parsing: "centre:0.25").rectangle(inFrameWidth: 320, height: 240) == PixelRectangle(x: 130, y: 90, width: 60, height: 60))
        let box = try RegionOfInterest(parsing: "10,20,100,50")
        #expect(try box.rectangle(inFrameWidth: 110, height: 70) == PixelRectangle(x: 10, y: 20, width: 100, height: 50))
        #expect(throws: DigitError.self) { try box.rectangle(inFrameWidth: 109, height: 70) }
        #expect(throws: DigitError.self) { try RegionOfInterest(parsing: "\(Int.max),0,1,1").rectangle(inFrameWidth: 10, height: 10) }
    }

    @Test("malformed regions are refused", arguments: ["center:0", "center:1.5", "center:x", "1,2,3", "1,2,3,0", "-1,0,5,5", "a,b,c,d", "1,2,3,4,5", ""])
    func malformed(text: String) {
        #expect(throws: DigitError.self) { try RegionOfInterest(parsing: text) }
    }
}
