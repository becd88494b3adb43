/// The JSON Schema of `pushpreview.json` (`pushpreview schema`), which `init` writes beside the file
/// it makes (`ProjectInit.schemaFile`). Each object lists exactly the keys its reader knows
/// (`Project`, `ServiceSettings`, `ContentConfiguration`): a test keeps the two in step.
public enum SettingsSchema {
    public static let text = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "title": "pushpreview.json",
      "description": "Settings of a PushPreview project folder. Every key is optional.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "$schema": {"type": "string", "description": "The schema editors check this file against (init writes pushpreview.schema.json)."},
        "appName": {"type": "string", "description": "The app name in the notification header (default: the Xcode app's display name, else PushPreview)."},
        "bundleId": {"type": "string", "pattern": "^[A-Za-z0-9.-]+$", "description": "The app's bundle ID: the apns-topic pushpreview serve's APNs endpoint requires (TopicDisallowed otherwise)."},
        "appIcon": {"type": "string", "description": "The app icon image, relative to the project; it must lie in the project or in the repository \"xcode\" names."},
        "wallpaper": {"type": "string", "minLength": 1, "description": "A picture (JPEG, PNG or GIF) behind the banner, the Lock Screen and stacks, cropped to each device's screen as iOS crops a wallpaper; relative to the project, inside it or the repository \"xcode\" names (--wallpaper overrides it)."},
        "fonts": {"$ref": "#/$defs/strings", "description": "Font files loaded for every page, relative to the project; inside the project or the repository \"xcode\" names."},
        "xcode": {"type": "string", "minLength": 1, "description": "Relative path of the app's .xcodeproj, .xcworkspace, XcodeGen project.yml or folder; its Info.plists, strings, icon and fonts are read where they live. Inside a git checkout it must lie in that checkout."},
        "devices": {"$ref": "#/$defs/strings", "description": "Device profile ids drawn when --device is not given (pushpreview devices)."},
        "locales": {"$ref": "#/$defs/strings", "description": "Locales drawn when --locale is not given, e.g. [\"en\", \"nl\"]."},
        "ios": {"type": "array", "items": {"enum": ["26", "27", "18"]}, "description": "iOS versions whose chrome is drawn when --ios is not given (default [\"26\"]; 27 draws as 26)."},
        "timeBudget": {"type": "number", "exclusiveMinimum": 0, "maximum": 600, "description": "The service stage's budget in seconds (default 30)."},
        "mediaRoots": {"$ref": "#/$defs/strings", "description": "Folders, relative to the project, that local attachments may be read from (default [\"media\"])."},
        "allowedHosts": {"$ref": "#/$defs/strings", "description": "Hosts (host or host:port) attachments may be downloaded from (default none)."},
        "mediaKeys": {"$ref": "#/$defs/strings", "description": "Payload keys whose URLs are attached as media (default [\"image-url\", \"attachment-url\", \"media-url\"])."},
        "sdks": {"$ref": "#/$defs/strings", "description": "Push SDKs the service extension calls, by their file in Templates/sdks (\"firebase-messaging\", \"klaviyo\", …): their media keys are attached, their buttons built and their changes made, as each SDK does."},
        "codeChanges": {
          "type": "array", "description": "What the service extension's code sets on the content that PushPreview does not follow (init writes it): each a warning at its file and line until a set entry says what it does.",
          "items": {"type": "object", "additionalProperties": false, "required": ["field", "at", "code"],
                    "properties": {"field": {"type": "string"}, "at": {"type": "string", "pattern": ":[0-9]+$"}, "code": {"type": "string"}}}
        },
        "attachmentOptions": {
          "type": "object", "additionalProperties": false,
          "description": "Where each attachment option is in the payload, when not at attachment-options.NAME: option name → key path.",
          "properties": {
            "type-hint": {"$ref": "#/$defs/keyPath"}, "thumbnail-hidden": {"$ref": "#/$defs/keyPath"},
            "thumbnail-time": {"$ref": "#/$defs/keyPath"}, "thumbnail-clipping-rect": {"$ref": "#/$defs/keyPath"}
          }
        },
        "decrypt": {
          "type": "object", "additionalProperties": false,
          "description": "Decrypting the payload as the service extension does.",
          "properties": {
            "scheme": {"enum": ["aes256gcm", "webpush"], "description": "aes256gcm: a CryptoKit box chosen by key id (default); webpush: a Web Push message (RFC 8291)."},
            "payloadKey": {"type": "string", "description": "The payload key holding the encrypted text (default encrypted)."},
            "keys": {"type": "string", "description": "The keys file, relative to the project (default app-group/keys.json, for webpush app-group/webpush.json)."},
            "keyIdKey": {"type": "string", "description": "aes256gcm only: the payload key naming the key to use (default key-id)."},
            "contentEncoding": {"enum": ["aes128gcm", "aesgcm"], "description": "webpush only: RFC 8291's records (default) or the older draft's."},
            "encoding": {"enum": ["base64", "base64url", "z85"], "description": "webpush only: how the payload writes binary values (default base64url)."},
            "saltKey": {"type": "string", "description": "webpush with aesgcm only: the payload key carrying the salt (default s)."},
            "senderKeyKey": {"type": "string", "description": "webpush with aesgcm only: the payload key carrying the sender's public key (default k)."},
            "alertKeys": {
              "type": "object", "additionalProperties": false,
              "description": "Alert field → the plaintext key that fills it, where it is not the field's own name.",
              "properties": {"title": {"type": "string"}, "subtitle": {"type": "string"}, "body": {"type": "string"}}
            }
          }
        },
        "enrich": {
          "type": "array",
          "description": "Enrichment rules, applied in order: the payload's value of key is looked up in data, and set fills fields from the record found.",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["key", "data", "set"],
            "properties": {
              "key": {"type": "string", "description": "The payload key whose value is looked up."},
              "data": {"type": "string", "description": "A JSON object, relative to the project: value → record."},
              "set": {"$ref": "#/$defs/templates", "description": "Field (title, subtitle, body, or a custom key) → Mustache template over the record."}
            }
          }
        },
        "set": {"$ref": "#/$defs/templates", "description": "Field → Mustache template over the content, applied after enrichment, as an extension that sets the field on every notification.", "propertyNames": {"not": {"enum": ["aps", "alert", "content-available", "mutable-content", "attachments"]}}},
        "communication": {
          "type": "object", "additionalProperties": false,
          "description": "The messaging intent the extension donates: Mustache templates over title, subtitle, body and userInfo.",
          "properties": {
            "senderName": {"type": "string"}, "senderImage": {"type": "string"}, "senderHandle": {"type": "string"},
            "groupName": {"type": "string"}, "groupImage": {"type": "string"}
          }
        },
        "categories": {
          "type": "object",
          "description": "Category id → what its content extension's view controller decides in code.",
          "additionalProperties": {
            "type": "object", "additionalProperties": false,
            "properties": {
              "mediaPlayPauseButtonType": {"enum": ["none", "default", "overlay"], "description": "The media play/pause button iOS draws (default none)."},
              "mediaPlayPauseButtonFrame": {
                "type": "array", "minItems": 4, "maxItems": 4,
                "description": "[x, y, width, height] in the custom view's points; x and y may be \"center\"; width and height above 0.",
                "prefixItems": [
                  {"anyOf": [{"type": "number"}, {"const": "center"}]}, {"anyOf": [{"type": "number"}, {"const": "center"}]},
                  {"type": "number", "exclusiveMinimum": 0}, {"type": "number", "exclusiveMinimum": 0}
                ]
              },
              "mediaPlayPauseButtonTintColor": {"type": "string", "description": "A CSS colour (default: the system's)."},
              "title": {"type": "string", "description": "The view controller's title, Mustache over the template data; shown when the extension sets UNNotificationExtensionOverridesDefaultTitle."},
              "actionsFrom": {"type": "string", "minLength": 1, "description": "The key path of the payload's array of actions, as an extension setting notificationActions from it."},
              "actionFields": {
                "type": "object", "additionalProperties": false,
                "description": "Action field → the payload's name for it.",
                "properties": {
                  "identifier": {"$ref": "#/$defs/keyPath"}, "title": {"$ref": "#/$defs/keyPath"}, "options": {"$ref": "#/$defs/keyPath"},
                  "icon": {"$ref": "#/$defs/keyPath"}, "textInput": {"$ref": "#/$defs/keyPath"}
                }
              }
            }
          }
        }
      },
      "$defs": {
        "strings": {"type": "array", "items": {"type": "string"}},
        "keyPath": {"type": "string", "minLength": 1},
        "templates": {"type": "object", "additionalProperties": {"type": "string"}}
      }
    }

    """#
}
