struct TideTable { var highWater: [Double] = [] }
