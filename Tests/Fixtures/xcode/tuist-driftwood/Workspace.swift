import ProjectDescription

let workspace = Workspace(
    name: "Driftwood",
    projects: ["."]
)
