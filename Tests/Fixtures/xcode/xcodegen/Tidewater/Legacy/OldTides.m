#import <Foundation/Foundation.h>
// Superseded by TideTable; kept out of the build by the spec.
