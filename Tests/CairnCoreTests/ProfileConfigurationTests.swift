import CairnSettings
import CairnStream
import CairnTestSupport
import Foundation
import Testing

/// Profiles in the configuration file, keys in files, and the files cairn refuses to read.
@Suite struct ProfileConfigurationTests {
  static let household = """
    CAIRN_FLOOR=9   # every profile
    IMMICH_URL=https://shared.example

    [profile anna]
    IMMICH_URL=https://anna.example
    IMMICH_API_KEY=anna-key
    [profile ben]  # Ben's phone
    IMMICH_URL=https://ben.example
    IMMICH_API_KEY_FILE=ben.key
    CAIRN_FLOOR=3
    """

  func load(_ folder: TemporaryDirectory, _ extra: [String: String] = [:]) throws
    -> Configuration
  {
    try Configuration.load(
      environment: folder.isolatedEnvironment(extra), workingDirectory: folder.path)
  }

  @Test func aProfileTakesItsSectionOverTheSharedLines() throws {
    let folder = TemporaryDirectory()
    try folder.privateFile("config/cairn/config", Self.household)
    try folder.privateFile("config/cairn/ben.key", "ben-key\n")
    let anna = try load(folder, ["CAIRN_PROFILE": "anna"])
    #expect(anna.profile == "anna")
    #expect(anna.profileNames == ["anna", "ben"])
    #expect(anna.serverURL == "https://anna.example")
    #expect(try anna.apiKey()?.reveal() == "anna-key")
    #expect(try SettingsTable.floor.value(in: anna) == 9)
    let ben = try load(folder, ["CAIRN_PROFILE": "ben"])
    #expect(ben.serverURL == "https://ben.example")
    // The key file is beside the configuration file, and its newline is not part of the key.
    #expect(try ben.apiKey()?.reveal() == "ben-key")
    #expect(try SettingsTable.floor.value(in: ben) == 3)
    #expect(ben.origin(of: "CAIRN_FLOOR")?.hasSuffix("config [profile ben]") == true)
    // Without a profile only the shared lines count: no section's key leaks into it.
    let none = try load(folder)
    #expect(none.serverURL == "https://shared.example")
    #expect(try none.apiKey() == nil)
  }

  @Test func theEnvironmentStillBeatsTheProfile() throws {
    let folder = TemporaryDirectory()
    try folder.privateFile("config/cairn/config", Self.household)
    let config = try load(folder, ["CAIRN_PROFILE": "anna", "CAIRN_FLOOR": "1"])
    #expect(try SettingsTable.floor.value(in: config) == 1)
    // A key file named in the environment replaces the profile's key.
    let keyFile = try folder.privateFile("secrets/key", "from-file")
    let fromFile = try load(folder, ["CAIRN_PROFILE": "anna", "IMMICH_API_KEY_FILE": keyFile])
    #expect(try fromFile.apiKey()?.reveal() == "from-file")
    #expect(fromFile.apiKeySource == .file(path: keyFile, origin: "environment"))
  }

  @Test func anUnknownProfileIsRefusedNotIgnored() throws {
    let folder = TemporaryDirectory()
    try folder.privateFile("config/cairn/config", Self.household)
    let error = #expect(throws: CairnError.self) { try load(folder, ["CAIRN_PROFILE": "carl"]) }
    #expect(error?.status == .configuration)
    #expect(
      error?.message == "no profile 'carl' in the configuration file (its profiles: anna, ben)")
    let bad = #expect(throws: CairnError.self) { try load(folder, ["CAIRN_PROFILE": "../x"]) }
    #expect(bad?.message.hasPrefix("invalid profile name '../x'") == true)
  }

  @Test(arguments: [
    ("[profile anna]\nA=1\n[profile anna]\n", "profile 'anna' is defined twice", 3),
    ("A=1\n[anna]\n", "expected KEY=value or [profile NAME]", 2),
    ("[profile a b]\n", "invalid profile name 'a b'", 1),
    ("[profile ok]\n\nbroken line\n", "expected KEY=value", 3),
  ])
  func malformedSectionsNameTheirLine(text: String, message: String, line: Int) throws {
    let folder = TemporaryDirectory()
    let file = try folder.privateFile("config/cairn/config", text)
    let error = #expect(throws: CairnError.self) { try load(folder) }
    #expect(error?.status == .configuration)
    #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    #expect(error?.location == "\(file):\(line)")
  }

  @Test func aConfigurationFileOthersCanReadIsRefused() throws {
    let folder = TemporaryDirectory()
    let file = try folder.file("config/cairn/config", "CAIRN_FLOOR=3\n")
    for mode in [0o644, 0o640, 0o604] {
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
      let error = #expect(throws: CairnError.self) { try load(folder) }
      #expect(error?.status == .configuration)
      #expect(error?.location == file)
      #expect(error?.message.contains("readable by other users") == true)
      #expect(error?.message.contains("chmod 600 \(file)") == true)
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
    #expect(try load(folder).string("CAIRN_FLOOR") == "3")
  }

  @Test func aConfigurationFileThatCannotBeReadIsRefusedAndAMissingOneIsNot() throws {
    let folder = TemporaryDirectory()
    #expect(try load(folder).serverURL == nil)
    try FileManager.default.createDirectory(
      atPath: folder.path + "/config/cairn/config", withIntermediateDirectories: true)
    let error = #expect(throws: CairnError.self) { try load(folder) }
    #expect(error?.status == .configuration)
    #expect(error?.message == "the configuration file is not a regular file")
  }

  @Test func aDotEnvOthersCanReadIsRefusedOnlyWhenItHoldsASecret() throws {
    let folder = TemporaryDirectory()
    try folder.file(".env", "IMMICH_URL=https://a.example\nOTHER_TOOL=1\n")
    #expect(try load(folder).serverURL == "https://a.example")
    try folder.file(".env", "IMMICH_URL=https://a.example\nIMMICH_API_KEY=k\n")
    let error = #expect(throws: CairnError.self) { try load(folder) }
    #expect(error?.message.contains("readable by other users") == true)
  }

  @Test func keyFilesAreCheckedWhenTheKeyIsNeeded() throws {
    let folder = TemporaryDirectory()
    let missing = folder.path + "/nowhere/key"
    func keyError(_ path: String) throws -> CairnError? {
      let config = try load(folder, ["IMMICH_API_KEY_FILE": path])
      return #expect(throws: CairnError.self) { try config.apiKey() }
    }
    #expect(try keyError(missing)?.message == "the API key file does not exist")
    let open = try folder.file("open.key", "k\n")
    #expect(try keyError(open)?.message.contains("readable by other users (mode 644)") == true)
    try FileManager.default.createDirectory(
      atPath: folder.path + "/dir.key", withIntermediateDirectories: true)
    #expect(
      try keyError(folder.path + "/dir.key")?.message == "the API key file is not a regular file")
    let empty = try folder.privateFile("empty.key", "\n")
    #expect(try keyError(empty)?.message == "the API key file is empty")
    let twoLines = try folder.privateFile("two.key", "a\nb\n")
    #expect(
      try keyError(twoLines)?.message.hasPrefix("the API key file holds more than one") == true)
    for error in [try keyError(missing), try keyError(open)] {
      #expect(error?.status == .configuration)
    }
    let good = try folder.privateFile("good.key", "  the-key\r\n")
    #expect(try load(folder, ["IMMICH_API_KEY_FILE": good]).apiKey()?.reveal() == "the-key")
    let home = try folder.privateFile("home/my.key", "home-key\n")
    #expect(
      try load(folder, ["IMMICH_API_KEY_FILE": "~/my.key"]).apiKeySource
        == .file(path: home, origin: "environment"))
  }

  @Test func oneSourceGivingBothKeyAndKeyFileIsRefused() throws {
    let folder = TemporaryDirectory()
    try folder.privateFile("config/cairn/config", "IMMICH_API_KEY=a\nIMMICH_API_KEY_FILE=/k\n")
    let error = #expect(throws: CairnError.self) { try load(folder) }
    #expect(error?.message == "IMMICH_API_KEY and IMMICH_API_KEY_FILE are both set; keep one")
  }

  @Test func aSystemdCredentialIsTheKeyWhenNothingElseIs() throws {
    let folder = TemporaryDirectory()
    try folder.privateFile("config/cairn/config", "[profile anna]\nIMMICH_URL=https://a\n")
    let plain = try folder.privateFile("credentials/immich-api-key", "plain-key\n")
    let annas = try folder.privateFile("credentials/immich-api-key.anna", "anna-key\n")
    let directory = folder.path + "/credentials"
    let unnamed = try load(folder, ["CREDENTIALS_DIRECTORY": directory])
    #expect(unnamed.apiKeySource == .credential(path: plain))
    #expect(try unnamed.apiKey()?.reveal() == "plain-key")
    let anna = try load(folder, ["CREDENTIALS_DIRECTORY": directory, "CAIRN_PROFILE": "anna"])
    #expect(anna.apiKeySource == .credential(path: annas))
    #expect(try anna.apiKey()?.reveal() == "anna-key")
    // A key given any other way wins over the credential.
    let given = try load(
      folder, ["CREDENTIALS_DIRECTORY": directory, "IMMICH_API_KEY": "env-key"])
    #expect(try given.apiKey()?.reveal() == "env-key")
  }
}
