/// The value of a type whose bytes are all zero, for a type where such a value exists without running any code:
/// one that holds no references (the run time copies it bit by bit) and has fewer bytes than a pointer, so that it
/// holds no pointer either, whose zero is no value of a non-optional pointer type.
///
/// The all-zero bytes of such a type are one of its values: an enumeration without payloads is its first declared
/// case (cases are numbered in declaration order from 0), an enumeration with payloads its first case holding a
/// zero payload, an integer or a floating-point number zero, a Boolean `false`, a structure or tuple of these made
/// of their zeros. Nil for every other type, and for a type of no size, which may have no value at all (an
/// enumeration without cases).
func zeroValue<T>(of type: T.Type) -> T? {
    let size = MemoryLayout<T>.size
    guard _isPOD(T.self), size > 0, size < MemoryLayout<UnsafeRawPointer>.size else { return nil }
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
    defer { bytes.deallocate() }
    bytes.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    return bytes.load(as: T.self)
}
