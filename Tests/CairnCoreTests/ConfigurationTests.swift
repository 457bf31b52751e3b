import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import CairnTestSupport
import Foundation
import Testing

@Suite struct ConfigurationTests {
  @Test func environmentBeatsDotEnvBeatsConfigFile() throws {
    let folder = TemporaryDirectory()
    let env = folder.isolatedEnvironment()
    try folder.privateFile(
      "config/cairn/config",
      "IMMICH_URL=http://file.example/api\nIMMICH_API_KEY=from-file\nCAIRN_FLOOR=9\n")
    try folder.file("work/.env", "export IMMICH_URL=\"http://dotenv.example\" # comment\n")
    var environment = env
    environment["IMMICH_API_KEY"] = "from-env"
    let config = try Configuration.load(
      environment: environment, workingDirectory: folder.path + "/work")
    #expect(config.serverURL == "http://dotenv.example")
    #expect(try config.apiKey()?.reveal() == "from-env")
    #expect(config.origin(of: "IMMICH_API_KEY") == "environment")
    #expect(try SettingsTable.floor.value(in: config) == 9)
    #expect(try SettingsTable.quarantineDays.value(in: config) == 14)
  }

  @Test func aBadLineNamesFileAndLine() throws {
    let folder = TemporaryDirectory()
    try folder.file("project/.env", "# fine\nIMMICH_URL\n")
    let error = #expect(throws: CairnError.self) {
      try Configuration.load(
        environment: folder.isolatedEnvironment(), workingDirectory: folder.path + "/project")
    }
    #expect(error?.status == .configuration)
    #expect(error?.location?.hasSuffix("/project/.env:2") == true)
  }

  @Test func outOfRangeSettingsAreConfigurationErrors() throws {
    let folder = TemporaryDirectory()
    var env = folder.isolatedEnvironment()
    env["CAIRN_QUARANTINE_DAYS"] = "91"
    let config = try Configuration.load(environment: env, workingDirectory: folder.path)
    let error = #expect(throws: CairnError.self) {
      try SettingsTable.quarantineDays.value(in: config)
    }
    #expect(error?.message == "CAIRN_QUARANTINE_DAYS=91 is not a whole number from 0 to 90")
  }

  @Test func secretsAreRedactedWhenInterpolated() {
    let secret = Secret("sk-very-distinctive-1234")
    #expect("\(secret)" == "<redacted>")
    #expect(String(describing: [secret]).contains("sk-very") == false)
    #expect(secret.reveal() == "sk-very-distinctive-1234")
  }

  @Test func xdgVariablesDecideEveryPath() {
    let paths = CairnPaths(environment: [
      "HOME": "/h", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "relative/ignored",
    ])
    #expect(paths.stateHome == "/s/cairn")
    #expect(paths.cacheHome == "/h/.cache/cairn")
    #expect(paths.configFile == "/h/.config/cairn/config")
    let partition = ServerPartition(
      serverURL: "https://photos.example.net:2283/api", userId: "ABC-1")
    #expect(partition.directoryName == "photos.example.net_2283_api__abc-1")
    #expect(
      paths.partitionDirectory(partition) == "/s/cairn/servers/photos.example.net_2283_api__abc-1")
  }

  @Test func privateFilesAndFoldersAreOwnerOnly() throws {
    let folder = TemporaryDirectory()
    let dir = folder.path + "/a/b"
    try CairnPaths.makePrivateDirectory(dir)
    try CairnPaths.writePrivateFile(dir + "/f", Array("x".utf8))
    let dirMode = try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: dir + "/f")[.posixPermissions] as? Int
    #expect(dirMode == 0o700)
    #expect(fileMode == 0o600)
  }
}
