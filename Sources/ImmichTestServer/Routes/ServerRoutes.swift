/// `/api/server/*`: public except `about`; and 3.2's `/api/config`, `/api/public/config`.
enum ServerRoutes {
  static let all: [Route] =
    [
      Route("GET", "/api/server/ping", .open) { _, _ in .json(200, ["res": "pong"]) },
      Route("GET", "/api/server/version", .open) { store, _ in .json(200, version(store)) },
      // Deprecated in 3.2 (their replacement, `/public/config`, holds no trash settings).
      Route("GET", "/api/server/features", .open) { store, _ in .json(200, features(store)) }
        .served { !$0.deprecatedRemoved },
      Route("GET", "/api/server/config", .open) { store, _ in .json(200, config(store)) }
        .served { !$0.deprecatedRemoved },
      Route("GET", "/api/server/media-types", .open) { _, _ in .json(200, mediaTypes) },
      Route("GET", "/api/server/about", .authenticated(permission: Permission.serverAbout)) {
        store, _ in
        .json(200, about(store))
      },
    ] + ConfigRoutes.all

  /// `prerelease` arrived in v3.0.0.
  static func version(_ store: Store) -> ImmichJSON {
    let v = store.version
    let numbers = store.reportedVersion ?? [v.major, v.minor, v.patch]
    var fields: [(String, ImmichJSON)] = [
      ("major", .number(Double(numbers[0]))), ("minor", .number(Double(numbers[1]))),
      ("patch", .number(Double(numbers[2]))),
    ]
    if v.isV3 { fields.append(("prerelease", .null)) }
    return .object(fields)
  }

  /// Exactly the 16 keys the e2e test expects; v2.7.5 had no `realtimeTranscoding`.
  static func features(_ store: Store) -> ImmichJSON {
    let all: ImmichJSON = [
      "smartSearch": false, "duplicateDetection": false, "configFile": false,
      "facialRecognition": false, "map": false, "trash": .bool(store.trashEnabled),
      "reverseGeocoding": false, "importFaces": false, "oauth": false, "oauthAutoLaunch": false,
      "passwordLogin": .bool(store.passwordLoginEnabled), "sidecar": true, "search": true,
      "email": false, "ocr": false, "realtimeTranscoding": false,
    ]
    return store.version.isV3 ? all : all.removing(["realtimeTranscoding"])
  }

  /// v2.7.5 had no `minFaces`.
  static func config(_ store: Store) -> ImmichJSON {
    let all: ImmichJSON = [
      "loginPageMessage": "", "trashDays": .number(Double(store.trashDays)),
      "userDeleteDelay": 7, "oauthButtonText": "Login with OAuth", "isInitialized": true,
      "isOnboarded": true, "externalDomain": "", "publicUsers": true,
      "mapDarkStyleUrl": "", "mapLightStyleUrl": "", "maintenanceMode": false, "minFaces": 3,
    ]
    return store.version.isV3 ? all : all.removing(["minFaces"])
  }

  static func about(_ store: Store) -> ImmichJSON {
    let tag =
      store.reportedVersion.map { "v" + $0.map(String.init).joined(separator: ".") }
      ?? store.version.aboutVersion
    return [
      "version": .string(tag),
      "versionUrl": .string("https://github.com/immich-app/immich/releases/tag/\(tag)"),
      "licensed": false, "nodejs": "v22.0.0", "build": "immich-testserver",
    ]
  }

  static let mediaTypes: ImmichJSON = [
    "image": [
      ".avif", ".dng", ".gif", ".heic", ".heif", ".jpeg", ".jpg", ".png", ".tif", ".tiff", ".webp",
    ],
    "video": [".3gp", ".avi", ".m4v", ".mkv", ".mov", ".mp4", ".mpg", ".webm"],
    "sidecar": [".xmp"],
  ]
}
