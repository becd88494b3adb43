// libyaml's parser (the event API): XcodeGen specs (project.yml) are read with it.
#include <yaml.h>
