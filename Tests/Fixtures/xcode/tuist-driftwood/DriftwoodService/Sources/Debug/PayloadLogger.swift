// Only in debug builds' helpers; excluded from the target by its glob.
enum PayloadLogger {}
