func formattedHeight(_ metres: Double) -> String { "\(metres) m" }
