import MotusCore

/// The contents of a MAT-file's MATLAB objects (MCOS: `datetime`, `duration`, `timetable`,
/// `table`, `string`, user classes), kept in the file's *subsystem data*: the unnamed uint8
/// array that MATLAB writes after the variables. A variable holding an object is an opaque
/// array (class 17) whose metadata is only a reference: uint32 values `0xDD000000, ndims,
/// dims…, objectIDs…, classID`. This type reads the subsystem data and turns such references
/// into the objects' saved properties.
///
/// MathWorks does not document this layout; it is read as mat-io 1.0.2's notes describe it
/// (`docs/subsystem_data_format.md`) and as MATLAB-written files show it:
/// - 8 bytes: version 0x0100 and the endian indicator, as in a MAT-file header, then padding;
/// - a 1×1 struct whose field `MCOS` is an opaque array of class `FileWrapper__` whose
///   metadata is an N×1 cell array:
///   - cell 1, uint8: the linking metadata: version (2 to 4), the number of names, eight
///     region offsets (from the start of the cell), the names (NUL-terminated, 1-based),
///     then the regions: (1) classes, four uint32 each (namespace name, class name, 0, 0);
///     (2) properties of objects saved through `saveobj` and (4) of the others, per object
///     a count then (name, type, value) triples, each block padded to 8 bytes; (3) objects,
///     six uint32 each (class, 0, 0, saveobj id, plain id, dependency id). Record 0 of
///     every region is empty;
///   - cell 2: empty; cells 3 onwards: the property values, a property of type 1 naming
///     its cell by index from 0 (= cell 3);
///   - the last one, two or three cells (versions 2, 3, 4): per class, default property
///     values (the last cell, a cell of structs by class id), class aliases and an unknown.
/// A property of type 2 holds its value (a number) in the triple itself; type 0 names an
/// enumeration member. Inside property values, a uint32 array in the reference layout is
/// another object (a timetable's row times), resolved in turn.
struct MATSubsystem {
    /// One object's class and property list (a block of region 2 or 4).
    struct ObjectRecord {
        var classID: Int
        var properties: [(name: Int, type: Int, value: Int, offset: Int)]
        /// Byte offset of its record in region 3 (for errors).
        var offset: Int
    }

    let place: MATPlace
    let names: [String]
    /// Class names by class id (index 0 unused).
    let classNames: [String]
    /// Objects by object id (index 0 unused).
    let objects: [ObjectRecord]
    /// Property values: cell `i` of the FileWrapper__ cell array is value `i - 2`.
    let values: [MATArray]
    /// Default property values by class id (structs), from the last cell; empty when absent.
    let defaults: [MATArray]
    /// Offset of each property value's cell, for errors.
    let valueOffsets: [Int]

    /// The reference marker opening an MCOS object reference.
    static let referenceMarker: Double = 0xDD00_0000

    /// Reads the subsystem data `bytes`, which start at byte `base` of the file (or, when
    /// `compressedAt` is set, of the decompressed element compressed there).
    init(bytes: [UInt8], file: String, compressedAt: Int?, base: Int) throws(InputError) {
        let place = MATPlace(file: file, compressedAt: compressedAt, base: base)
        self.place = place
        var parsed: (names: [String], classes: [String], objects: [ObjectRecord], values: [MATArray], defaults: [MATArray], offsets: [Int])
            = ([], [], [], [], [], [])
        try bytes.withUnsafeBufferPointer { (p) throws(InputError) in
            let raw = UnsafeRawBufferPointer(p)
            guard raw.count >= 8 else {
                throw place.fail(.truncated, at: 0, found: "\(raw.count) bytes", expected: "subsystem data opening with an 8-byte header")
            }
            let big: Bool
            if raw[2] == UInt8(ascii: "I") && raw[3] == UInt8(ascii: "M") { big = false }
            else if raw[2] == UInt8(ascii: "M") && raw[3] == UInt8(ascii: "I") { big = true }
            else {
                throw place.fail(.badValue, at: 2, found: String(decoding: raw[2..<4], as: UTF8.self).escapingControlCharacters,
                                 expected: "the subsystem data's endian indicator 'IM' or 'MI'")
            }
            var parser = MATParser(bytes: raw, bigEndian: big, file: file, compressedAt: compressedAt, base: base, depth: 0)
            parsed = try MATSubsystem.parse(&parser, place: place)
        }
        (names, classNames, objects, values, defaults, valueOffsets) = parsed
    }

    // MARK: Reading

    /// Walks the struct → `MCOS` field → FileWrapper__ → cells, and reads the linking metadata.
    static func parse(_ p: inout MATParser, place: MATPlace)
        throws(InputError) -> ([String], [String], [ObjectRecord], [MATArray], [MATArray], [Int]) {
        let n = p.bytes.count
        let top = try p.tag(at: 8, end: n)
        guard top.type == MATType.matrix else {
            throw p.fail(.badValue, at: 8, found: MATType.name(top.type), expected: "the subsystem's struct of type systems (miMATRIX)")
        }
        // The struct: flags, dimensions, name, field name length, field names, field values.
        let end = top.data + top.size
        let ft = try p.tag(at: top.data, end: end)
        guard ft.type == MATType.uint32, ft.size == 8, p.u32(ft.data) & 0xFF == 2 else {
            throw p.fail(.badValue, at: top.data, found: ft.type == MATType.uint32 && ft.size == 8 ? "array class \(p.u32(ft.data) & 0xFF)" : MATType.name(ft.type),
                         expected: "the subsystem's struct of type systems (class 2)")
        }
        let dt = try p.tag(at: ft.next, end: end)
        let nt = try p.tag(at: dt.next, end: end)
        let lt = try p.tag(at: nt.next, end: end)
        guard lt.type == MATType.int32, lt.size == 4 else {
            throw p.fail(.badValue, at: nt.next, found: "\(MATType.name(lt.type)) of \(lt.size) bytes", expected: "the field name length (miINT32)")
        }
        let width = Int(Int32(bitPattern: p.u32(lt.data)))
        let namesTag = try p.tag(at: lt.next, end: end)
        guard width > 0, namesTag.size % width == 0 else {
            throw p.fail(.badValue, at: lt.next, found: "\(namesTag.size) bytes of names \(width) wide", expected: "the type system names (a multiple of the field name length)")
        }
        var at = namesTag.next
        var fileWrapper: MATParser.Tag? = nil
        var fileWrapperAt = 0
        for k in 0..<(namesTag.size / width) {
            let s = namesTag.data + k * width
            var e = s
            while e < s + width && p.bytes[e] != 0 { e += 1 }
            let field = String(decoding: UnsafeRawBufferPointer(rebasing: p.bytes[s..<e]), as: UTF8.self)
            let vt = try p.tag(at: at, end: end)
            guard vt.type == MATType.matrix else {
                throw p.fail(.badValue, at: at, found: MATType.name(vt.type), expected: "the subsystem's '\(field)' objects (miMATRIX)")
            }
            if field == "MCOS" { fileWrapper = vt; fileWrapperAt = at }
            at = vt.next
        }
        guard let fw = fileWrapper else {
            throw p.fail(.badValue, at: 8, found: "no MCOS objects", expected: "the subsystem's MCOS objects (MATLAB classes; other type systems, such as java, are not read)")
        }
        // FileWrapper__: an opaque array whose metadata is the cell array.
        let object = try p.opaque(at: try p.tag(at: fw.data, end: fw.data + fw.size).next, end: fw.data + fw.size, path: "MCOS")
        guard object.className == "FileWrapper__", let cells = object.elements.first, cells.arrayClass == .cell, cells.elements.count >= 3 else {
            throw p.fail(.badValue, at: fileWrapperAt, found: "\(object.className ?? "?") holding \(object.elements.first?.summary ?? "nothing")",
                         expected: "a FileWrapper__ object holding a cell array of at least 3 cells")
        }
        // Offsets of the cells, for errors: walk the cell array's tags again.
        let offsets = try cellOffsets(p, fileWrapper: fw, count: cells.elements.count)
        let metaCell = cells.elements[0]
        guard metaCell.arrayClass == .uint8, let metaAt = try metadataData(p, at: offsets[0]) else {
            throw p.fail(.badValue, at: offsets[0], found: metaCell.summary, expected: "the linking metadata (a uint8 array)")
        }
        let meta = try Metadata(p, data: metaAt)
        let tail = meta.version == 2 ? 1 : meta.version == 3 ? 2 : 3
        guard cells.elements.count >= 2 + tail else {
            throw p.fail(.badValue, at: offsets[0], found: "\(cells.elements.count) cells", expected: "at least \(2 + tail) cells for FileWrapper__ version \(meta.version)")
        }
        let values = Array(cells.elements[2..<(cells.elements.count - tail)])
        let valueOffsets = Array(offsets[2..<(cells.elements.count - tail)])
        let last = cells.elements[cells.elements.count - 1]
        let defaults = last.arrayClass == .cell ? last.elements : []
        return (meta.names, meta.classNames, meta.objects, values, defaults, valueOffsets)
    }

    /// Offsets of the FileWrapper__ cells' tags (after `opaque` has checked their layout).
    static func cellOffsets(_ p: MATParser, fileWrapper fw: MATParser.Tag, count: Int) throws(InputError) -> [Int] {
        let end = fw.data + fw.size
        var at = try p.tag(at: fw.data, end: end).next        // flags
        for _ in 0..<3 { at = try p.tag(at: at, end: end).next }   // name, type system, class name
        let cellArray = try p.tag(at: at, end: end)
        let cend = cellArray.data + cellArray.size
        at = cellArray.data
        for _ in 0..<3 { at = try p.tag(at: at, end: cend).next }  // flags, dimensions, name
        var out: [Int] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            out.append(at)
            at = try p.tag(at: at, end: cend).next
        }
        return out
    }

    /// The data range of the uint8 array whose tag is at `at`.
    static func metadataData(_ p: MATParser, at: Int) throws(InputError) -> Range<Int>? {
        let t = try p.tag(at: at, end: p.bytes.count)
        let end = t.data + t.size
        var o = try p.tag(at: t.data, end: end).next
        o = try p.tag(at: o, end: end).next
        o = try p.tag(at: o, end: end).next
        let v = try p.tag(at: o, end: end)
        return v.type == MATType.uint8 ? v.data..<(v.data + v.size) : nil
    }

    /// The linking metadata (cell 1).
    struct Metadata {
        var version = 0
        var names: [String] = []
        var classNames: [String] = [""]
        var objects: [ObjectRecord] = []

        init(_ p: MATParser, data r: Range<Int>) throws(InputError) {
            let start = r.lowerBound, size = r.count
            guard size >= 40 else {
                throw p.fail(.truncated, at: start, found: "\(size) bytes", expected: "linking metadata of at least 40 bytes (version, name count, 8 offsets)")
            }
            func word(_ o: Int) -> Int { Int(p.u32(start + o)) }
            version = word(0)
            guard (2...4).contains(version) else {
                throw p.fail(.badValue, at: start, found: "FileWrapper__ version \(version)", expected: "version 2, 3 or 4")
            }
            let nameCount = word(4)
            var region: [Int] = []
            for k in 0..<8 { region.append(word(8 + 4 * k)) }
            // Regions 1 to 5 must be in order within the cell, on 4-byte boundaries.
            var previous = 40
            for k in 0..<5 {
                guard region[k] >= previous, region[k] <= size, region[k] % 4 == 0 else {
                    throw p.fail(.badValue, at: start + 8 + 4 * k, found: "region \(k + 1) at \(region[k])",
                                 expected: "an offset from \(previous) to \(size), a multiple of 4, after the one before")
                }
                previous = region[k]
            }
            // Names: NUL-terminated, between byte 40 and region 1.
            var o = 40
            while names.count < nameCount {
                var e = o
                while e < region[0] && p.bytes[start + e] != 0 { e += 1 }
                guard e < region[0] else {
                    throw p.fail(.truncated, at: start + o, found: "\(names.count) names", expected: "\(nameCount) NUL-terminated names before byte \(region[0]) of the linking metadata")
                }
                guard let s = String(validating: UnsafeRawBufferPointer(rebasing: p.bytes[(start + o)..<(start + e)]), as: UTF8.self) else {
                    throw p.fail(.badValue, at: start + o, found: "bytes that are not UTF-8", expected: "a class or property name")
                }
                names.append(s)
                o = e + 1
            }
            let names = self.names
            func name(_ index: Int, at: Int, _ what: String) throws(InputError) -> String {
                guard index >= 1 && index <= names.count else {
                    throw p.fail(.badValue, at: at, found: "name \(index)", expected: "\(what): a name from 1 to \(names.count)")
                }
                return names[index - 1]
            }
            // Region 1: classes, 16 bytes each (record 0 empty).
            var c = region[0] + 16
            while c + 16 <= region[1] {
                let ns = word(c)
                let cls = try name(word(c + 4), at: start + c + 4, "a class name")
                classNames.append(ns == 0 ? cls : try name(ns, at: start + c, "a namespace") + "." + cls)
                c += 16
            }
            // Regions 2 and 4: property blocks.
            func blocks(_ from: Int, _ to: Int) throws(InputError) -> [[(name: Int, type: Int, value: Int, offset: Int)]] {
                var out: [[(name: Int, type: Int, value: Int, offset: Int)]] = []
                var b = from
                while b + 4 <= to {
                    let count = word(b)
                    let words = 1 + 3 * count
                    let (bytes, overflow) = (words + words % 2).multipliedReportingOverflow(by: 4)
                    guard !overflow, count <= (to - b) / 12, b + bytes <= to else {
                        throw p.fail(.badValue, at: start + b, found: "\(count) properties", expected: "a property block that ends by byte \(to) of the linking metadata")
                    }
                    var props: [(name: Int, type: Int, value: Int, offset: Int)] = []
                    for k in 0..<count {
                        let q = b + 4 + 12 * k
                        props.append((word(q), word(q + 4), word(q + 8), start + q))
                    }
                    out.append(props)
                    b += bytes
                }
                return out
            }
            let saveobj = try blocks(region[1], region[2])
            let plain = try blocks(region[3], region[4])
            // Region 3: objects, 24 bytes each (record 0 empty).
            objects = [ObjectRecord(classID: 0, properties: [], offset: start + region[2])]
            var b = region[2] + 24
            while b + 24 <= region[3] {
                let classID = word(b), saveID = word(b + 12), plainID = word(b + 16)
                guard classID >= 1 && classID < classNames.count else {
                    throw p.fail(.badValue, at: start + b, found: "class \(classID)", expected: "a class id from 1 to \(classNames.count - 1)")
                }
                let props: [(name: Int, type: Int, value: Int, offset: Int)]
                if saveID > 0 {
                    guard saveID < saveobj.count else {
                        throw p.fail(.badValue, at: start + b + 12, found: "property block \(saveID)", expected: "a saveobj property block below \(saveobj.count)")
                    }
                    props = saveobj[saveID]
                } else {
                    guard plainID < plain.count else {
                        throw p.fail(.badValue, at: start + b + 16, found: "property block \(plainID)", expected: "a property block below \(plain.count)")
                    }
                    props = plainID == 0 ? [] : plain[plainID]
                }
                for q in props { _ = try name(q.name, at: q.offset, "a property name") }
                objects.append(ObjectRecord(classID: classID, properties: props, offset: start + b))
                b += 24
            }
        }
    }

    // MARK: Resolving

    /// Object ids and dimensions of a reference (`0xDD000000, ndims, dims…, ids…, classID`),
    /// or nil when `a` is not one.
    static func reference(_ a: MATArray) -> (ids: [Int], dims: [Int], classID: Int)? {
        guard a.arrayClass == .uint32, !a.isComplex, a.values.count >= 5, a.values[0] == referenceMarker else { return nil }
        // A uint32 array may have been stored as another type: only whole numbers in range count.
        guard a.values.allSatisfy({ $0 >= 0 && $0 <= 4_294_967_295 && $0 == $0.rounded() }) else { return nil }
        let v = a.values
        let ndims = Int(v[1])
        guard ndims >= 2, ndims <= v.count - 2 else { return nil }
        let dims = v[2..<(2 + ndims)].map { Int($0) }
        var count = 1
        for d in dims {
            let (c, o) = count.multipliedReportingOverflow(by: d)
            guard !o else { return nil }
            count = c
        }
        guard v.count == 2 + ndims + count + 1 else { return nil }
        return (v[(2 + ndims)..<(2 + ndims + count)].map { Int($0) }, dims, Int(v[v.count - 1]))
    }

    /// The opaque variable `a` (found at `offset`) with its objects' properties: class name,
    /// the reference's dimensions, and per object its saved properties (fields), other
    /// objects inside them resolved too. Non-MCOS objects and MCOS objects whose metadata is
    /// not a reference (enumerations) are returned unchanged, undecoded.
    func resolve(_ a: MATArray, at offset: Int) throws(InputError) -> MATArray {
        guard a.arrayClass == .opaque, a.typeSystem == "MCOS", let meta = a.elements.first, let ref = MATSubsystem.reference(meta) else { return a }
        var state = ResolveState()
        var out = try object(ref, state: &state, at: .file(offset), label: a.name)
        out.name = a.name
        return out
    }

    struct ResolveState {
        var done: [Int: (names: [String], values: [MATArray])] = [:]
        var active: Set<Int> = []
        var depth = 0
    }

    /// Where a reference was found: a variable's element in the file, or a property value's
    /// cell in the subsystem data.
    enum Spot {
        case file(Int)
        case subsystem(Int)
    }

    func fail(_ spot: Spot, found: String, expected: String) -> InputError {
        switch spot {
        case .file(let o): place.failFile(at: o, found: found, expected: expected)
        case .subsystem(let o): place.fail(.badValue, at: o, found: found, expected: expected)
        }
    }

    func object(_ ref: (ids: [Int], dims: [Int], classID: Int), state: inout ResolveState, at spot: Spot, label: String) throws(InputError) -> MATArray {
        guard ref.classID >= 1 && ref.classID < classNames.count else {
            throw fail(spot, found: "class \(ref.classID) for '\(label)'", expected: "a class id from 1 to \(classNames.count - 1) (subsystem data)")
        }
        var perObject: [(names: [String], values: [MATArray])] = []
        for id in ref.ids {
            guard id >= 1 && id < objects.count else {
                throw fail(spot, found: "object \(id) for '\(label)'", expected: "an object id from 1 to \(objects.count - 1) (subsystem data)")
            }
            guard objects[id].classID == ref.classID else {
                throw place.fail(.badValue, at: objects[id].offset, found: "object \(id) of class \(objects[id].classID)",
                                 expected: "class \(ref.classID) (\(classNames[ref.classID])), as '\(label)' refers to it")
            }
            perObject.append(try properties(of: id, state: &state, label: label))
        }
        // Fields: every property saved for any of the objects, in first-seen order, then those
        // with a class default; one that an object did not save takes the class default when
        // the file has one (MATLAB leaves out properties still at their default), else [].
        let defaultStruct = ref.classID < defaults.count && defaults[ref.classID].arrayClass == .structure ? defaults[ref.classID] : nil
        var fields: [String] = []
        for o in perObject { for n in o.names where !fields.contains(n) { fields.append(n) } }
        for n in defaultStruct?.fieldNames ?? [] where !fields.contains(n) { fields.append(n) }
        var elements: [MATArray] = []
        elements.reserveCapacity(fields.count * perObject.count)
        for o in perObject {
            for f in fields {
                if let i = o.names.firstIndex(of: f) { elements.append(o.values[i]) }
                else if let d = defaultStruct?.field(f) { elements.append(d) }
                else { elements.append(MATArray(name: "", arrayClass: .double, dimensions: [0, 0])) }
            }
        }
        return MATArray(name: "", arrayClass: .opaque, dimensions: ref.dims, fieldNames: fields, elements: elements,
                        className: classNames[ref.classID], typeSystem: "MCOS")
    }

    func properties(of id: Int, state: inout ResolveState, label: String) throws(InputError) -> (names: [String], values: [MATArray]) {
        if let d = state.done[id] { return d }
        guard !state.active.contains(id), state.depth < MATParser.maxDepth else {
            throw place.fail(.badValue, at: objects[id].offset, found: "object \(id) inside itself",
                             expected: "objects that do not contain themselves (at most \(MATParser.maxDepth) levels)")
        }
        state.active.insert(id); state.depth += 1
        defer { state.active.remove(id); state.depth -= 1 }
        var names: [String] = [], values: [MATArray] = []
        for q in objects[id].properties {
            let name = self.names[q.name - 1]
            var v: MATArray
            switch q.type {
            case 1:
                guard q.value >= 0 && q.value < self.values.count else {
                    throw place.fail(.badValue, at: q.offset + 8, found: "property value \(q.value)",
                                     expected: "a property value cell from 0 to \(self.values.count - 1)")
                }
                v = try inner(self.values[q.value], state: &state, at: .subsystem(valueOffsets[q.value]), label: "\(label).\(name)")
            case 2:
                v = MATArray(name: "", arrayClass: .double, dimensions: [1, 1], values: [Double(q.value)])
            case 0:
                guard q.value >= 1 && q.value <= self.names.count else {
                    throw place.fail(.badValue, at: q.offset + 8, found: "name \(q.value)", expected: "an enumeration member's name from 1 to \(self.names.count)")
                }
                v = MATArray(name: "", arrayClass: .char, dimensions: [1, self.names[q.value - 1].count], text: self.names[q.value - 1])
            default:
                throw place.fail(.badValue, at: q.offset + 4, found: "property type \(q.type)", expected: "0 (enumeration), 1 (value) or 2 (attribute)")
            }
            v.name = ""
            names.append(name); values.append(v)
        }
        state.done[id] = (names, values)
        return (names, values)
    }

    /// A property value with the objects it holds resolved: references become objects,
    /// cells, structs and objects are walked.
    func inner(_ a: MATArray, state: inout ResolveState, at spot: Spot, label: String) throws(InputError) -> MATArray {
        if let ref = MATSubsystem.reference(a) { return try object(ref, state: &state, at: spot, label: label) }
        switch a.arrayClass {
        case .cell, .structure, .object:
            guard a.elements.contains(where: { $0.arrayClass == .uint32 || !$0.elements.isEmpty }) else { return a }
            var b = a
            for i in b.elements.indices { b.elements[i] = try inner(b.elements[i], state: &state, at: spot, label: label) }
            return b
        case .opaque:
            guard a.typeSystem == "MCOS", let meta = a.elements.first, let ref = MATSubsystem.reference(meta) else { return a }
            return try object(ref, state: &state, at: spot, label: label)
        default:
            return a
        }
    }
}

/// Where the bytes a parser reads sit, to place errors the way `MATParser.fail` does.
struct MATPlace {
    let file: String
    let compressedAt: Int?
    let base: Int

    /// An error at byte `offset` of the buffer that starts at `base`.
    func fail(_ reason: InputError.Reason, at offset: Int, found: String, expected: String) -> InputError {
        if let c = compressedAt {
            return InputError(reason, at: .byteOffset(c, in: file), found: found,
                              expected: expected + " (at byte \(base + offset) of the element compressed at byte \(c), decompressed)")
        }
        return InputError(reason, at: .byteOffset(base + offset, in: file), found: found, expected: expected)
    }

    /// An error at a file offset (a variable's element).
    func failFile(at offset: Int, found: String, expected: String) -> InputError {
        InputError(.badValue, at: .byteOffset(offset, in: file), found: found, expected: expected)
    }
}
