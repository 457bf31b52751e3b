/// 3.2's configuration endpoints (docs/IMMICH-API.md §14): `GET /config` (`userConfig.read`) holds the
/// trash settings that `/server/config` and `/server/features` held; `GET /public/config` holds
/// none. Older versions answer 404.
enum ConfigRoutes {
  static let all: [Route] = [
    Route("GET", "/api/config", .authenticated(permission: Permission.userConfigRead)) {
      store, _ in
      .json(200, userConfig(trashEnabled: store.trashEnabled, trashDays: store.trashDays, store))
    }.served { $0.version.hasUserConfig },
    Route("GET", "/api/config/defaults", .authenticated(permission: Permission.userConfigRead)) {
      store, _ in
      .json(200, userConfig(trashEnabled: true, trashDays: 30, store))
    }.served { $0.version.hasUserConfig },
    Route("GET", "/api/public/config", .open) { store, _ in .json(200, publicConfig(store)) }
      .served { $0.version.hasUserConfig },
    Route("GET", "/api/public/config/defaults", .open) { store, _ in
      .json(200, publicConfig(store))
    }.served { $0.version.hasUserConfig },
  ]

  /// `UserConfigDto`: every group is required; only `trash` and `passwordLogin` are modelled.
  static func userConfig(trashEnabled: Bool, trashDays: Int, _ store: Store) -> ImmichJSON {
    [
      "ffmpeg": ["realtime": ["enabled": false, "resolutions": [], "videoCodecs": []]],
      "image": [
        "fullsize": ["enabled": false], "preview": ["size": 1440], "thumbnail": ["size": 250],
      ],
      "machineLearning": [
        "enabled": false, "clip": ["enabled": false], "duplicateDetection": ["enabled": false],
        "facialRecognition": ["enabled": false, "minFaces": 3], "ocr": ["enabled": false],
      ],
      "map": [
        "enabled": false, "darkStyle": "https://tiles.immich.cloud/v1/style/dark.json",
        "lightStyle": "https://tiles.immich.cloud/v1/style/light.json",
      ],
      "oauth": ["enabled": false, "autoLaunch": false, "buttonText": "Login with OAuth"],
      "passwordLogin": ["enabled": .bool(store.passwordLoginEnabled)],
      "reverseGeocoding": ["enabled": false],
      "server": ["externalDomain": "", "loginPageMessage": "", "publicUsers": true],
      "theme": ["customCss": ""],
      "trash": ["enabled": .bool(trashEnabled), "days": .number(Double(trashDays))],
      "user": ["deleteDelay": 7],
    ]
  }

  /// `PublicConfigDto`: what the login page needs; no trash settings.
  static func publicConfig(_ store: Store) -> ImmichJSON {
    [
      "oauth": ["enabled": false, "autoLaunch": false, "buttonText": "Login with OAuth"],
      "passwordLogin": ["enabled": .bool(store.passwordLoginEnabled)],
      "server": ["loginPageMessage": ""],
      "theme": ["customCss": ""],
    ]
  }
}
