import MotusCore

/// One array of a MATLAB MAT-file: a numeric or logical matrix (values as `Double`, column-major),
/// a char array (as text), or a cell or struct array holding other arrays.
///
/// Dimensions are MATLAB's (at least two: a scalar is `[1, 1]`, a column of N values `[N, 1]`).
/// Element `(r, c)` of a two-dimensional array is `values[r + c * rows]`.
public struct MATArray: Sendable, Equatable {
    /// MATLAB's array class (mxClassID).
    public enum Class: String, Sendable, Hashable, CaseIterable {
        /// A cell array (mxCELL_CLASS, 1): `elements` holds the cells.
        case cell
        /// A struct array (mxSTRUCT_CLASS, 2): `fieldNames` and `elements` hold its fields.
        case structure = "struct"
        /// An object of a MATLAB class (mxOBJECT_CLASS, 3): fields as a struct's, with `className`.
        case object
        /// A char array (mxCHAR_CLASS, 4): `text` holds it.
        case char
        /// A sparse matrix (mxSPARSE_CLASS, 5); not decoded.
        case sparse
        /// 64-bit floating point (mxDOUBLE_CLASS, 6).
        case double
        /// 32-bit floating point (mxSINGLE_CLASS, 7).
        case single
        /// Signed 8-bit integers (mxINT8_CLASS, 8).
        case int8
        /// Unsigned 8-bit integers (mxUINT8_CLASS, 9); also MATLAB `logical` (see `isLogical`).
        case uint8
        /// Signed 16-bit integers (mxINT16_CLASS, 10).
        case int16
        /// Unsigned 16-bit integers (mxUINT16_CLASS, 11).
        case uint16
        /// Signed 32-bit integers (mxINT32_CLASS, 12).
        case int32
        /// Unsigned 32-bit integers (mxUINT32_CLASS, 13).
        case uint32
        /// Signed 64-bit integers (mxINT64_CLASS, 14).
        case int64
        /// Unsigned 64-bit integers (mxUINT64_CLASS, 15).
        case uint64
        /// A function handle (class 16); not decoded.
        case functionHandle = "function_handle"
        /// An opaque object (class 17), such as MATLAB's `string`, `table`, `timetable`. A
        /// MATLAB (MCOS) object read from the subsystem data has `className`, the object
        /// array's dimensions, and its saved properties as `fieldNames` and `elements` (as a
        /// struct's); others are not decoded.
        case opaque
        /// A class number this reader does not know.
        case unknown

        init(code: Int) {
            switch code {
            case 1: self = .cell
            case 2: self = .structure
            case 3: self = .object
            case 4: self = .char
            case 5: self = .sparse
            case 6: self = .double
            case 7: self = .single
            case 8: self = .int8
            case 9: self = .uint8
            case 10: self = .int16
            case 11: self = .uint16
            case 12: self = .int32
            case 13: self = .uint32
            case 14: self = .int64
            case 15: self = .uint64
            case 16: self = .functionHandle
            case 17: self = .opaque
            default: self = .unknown
            }
        }

        /// Numeric classes, whose values this reader converts to `Double`.
        public var isNumeric: Bool {
            switch self {
            case .double, .single, .int8, .uint8, .int16, .uint16, .int32, .uint32, .int64, .uint64: true
            default: false
            }
        }
    }

    /// The variable name (empty for the elements of cells and structs).
    public var name: String
    /// MATLAB's class of the array (a `logical` array is stored as `uint8`, with `isLogical`).
    public var arrayClass: Class
    /// MATLAB's dimensions, at least two (a scalar is `[1, 1]`).
    public var dimensions: [Int]
    /// MATLAB `logical` (stored as a uint8 array with the logical flag): values are 0 or 1.
    public var isLogical: Bool
    /// The array has an imaginary part (in `imaginary`).
    public var isComplex: Bool
    /// The variable was saved as a MATLAB `global`.
    public var isGlobal: Bool
    /// Numeric and logical arrays: the real part, column-major, one per element.
    public var values: [Double]
    /// Complex numeric arrays: the imaginary part, column-major; empty otherwise.
    public var imaginary: [Double]
    /// Char arrays: the text. A char matrix of several rows gives its rows joined by "\n".
    public var text: String?
    /// Struct, object and decoded opaque arrays: the field (property) names in file order.
    public var fieldNames: [String]
    /// Cell arrays: the cells, column-major. Struct, object and decoded opaque arrays: the
    /// field values, element by element (element `e`, field `f` at `e * fieldNames.count + f`);
    /// an opaque array not decoded holds its metadata (for MCOS objects, the reference).
    public var elements: [MATArray]
    /// Object and opaque arrays: the class name (`timetable`, `datetime`, …).
    public var className: String?
    /// False for the arrays this reader does not decode (sparse, function handles, opaque
    /// objects whose contents were not found in the subsystem data): only name, class and
    /// dimensions are known.
    public var isDecoded: Bool
    /// Opaque objects: the type system (`MCOS` for MATLAB's classes, `java`, …).
    public var typeSystem: String?
    /// int64/uint64 values too large to be exact as `Double` (beyond ±2^53), rounded to the
    /// nearest `Double`.
    public var inexactIntegers: Int

    /// An array with these parts; see the properties for each argument. The reader builds
    /// them; tests and writers of MAT-like data may too.
    public init(name: String, arrayClass: Class, dimensions: [Int], isLogical: Bool = false, isComplex: Bool = false,
                isGlobal: Bool = false, values: [Double] = [], imaginary: [Double] = [], text: String? = nil,
                fieldNames: [String] = [], elements: [MATArray] = [], className: String? = nil, isDecoded: Bool = true,
                inexactIntegers: Int = 0, typeSystem: String? = nil) {
        self.name = name; self.arrayClass = arrayClass; self.dimensions = dimensions
        self.isLogical = isLogical; self.isComplex = isComplex; self.isGlobal = isGlobal
        self.values = values; self.imaginary = imaginary; self.text = text
        self.fieldNames = fieldNames; self.elements = elements; self.className = className
        self.isDecoded = isDecoded; self.inexactIntegers = inexactIntegers; self.typeSystem = typeSystem
    }

    /// Number of elements: the product of the dimensions.
    public var count: Int { dimensions.reduce(1, *) }
    /// First dimension (rows).
    public var rows: Int { dimensions.first ?? 0 }
    /// Product of the dimensions after the first (columns of a matrix).
    public var columns: Int { dimensions.dropFirst().reduce(1, *) }

    /// Element `(row, column)` of a numeric array (column-major storage).
    @inlinable public func value(_ row: Int, _ column: Int) -> Double { values[row + column * dimensions[0]] }

    /// Column `c` of a numeric matrix.
    public func column(_ c: Int) -> ArraySlice<Double> { values[(c * rows)..<((c + 1) * rows)] }

    /// A field of element `element` of a struct or object array; nil when there is no such field.
    public func field(_ name: String, element: Int = 0) -> MATArray? {
        guard let f = fieldNames.firstIndex(of: name) else { return nil }
        let i = element * fieldNames.count + f
        return i >= 0 && i < elements.count ? elements[i] : nil
    }

    /// A short description, e.g. "double 56940×3", "logical 1×5", "char 1×890", "struct 1×1".
    public var summary: String {
        let c = isLogical ? "logical" : isComplex ? "complex \(arrayClass.rawValue)" : arrayClass.rawValue
        return c + " " + dimensions.map(String.init).joined(separator: "×")
    }
}

/// An array the reader found but did not decode (see `MATArray.isDecoded`), with where it is:
/// a variable name, or a path inside one (`s.field`, `c{3}`).
public struct MATSkipped: Sendable, Hashable, CustomStringConvertible {
    /// Where the array is: a variable name, or a path inside one (`s.field`, `c{3}`).
    public var name: String
    /// Its MATLAB class.
    public var arrayClass: MATArray.Class
    /// Its MATLAB dimensions, as its header gives them.
    public var dimensions: [Int]
    /// The place, class and dimensions, e.g. "s.t (sparse 10×10)".
    public var description: String {
        "\(name) (\(arrayClass.rawValue)\(dimensions.isEmpty ? "" : " " + dimensions.map(String.init).joined(separator: "×")))"
    }
}
