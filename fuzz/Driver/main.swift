import CairnFuzzHarness

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The libFuzzer driver (built with -sanitize=fuzzer by `make fuzz`): SwiftPM gives every
// executable its own `main`, so this one hands the command line to libFuzzer's driver, which
// calls `fuzzOneInput` for each input. Which reader is fuzzed comes from CAIRN_FUZZ_TARGET.

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

func fuzzTarget() -> FuzzTarget {
  let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
  guard let name = getenv("CAIRN_FUZZ_TARGET").map({ String(cString: $0) }),
    let target = FuzzTarget(rawValue: name)
  else {
    let message = "cairn-fuzz: set CAIRN_FUZZ_TARGET to one of: \(names)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(64)
  }
  return target
}

nonisolated(unsafe) let target = fuzzTarget()

// Also under libFuzzer's conventional name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  target.run(bytes)
  return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
