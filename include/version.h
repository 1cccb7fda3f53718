/* version.h - the one version of the project, shared by the daemon, the
 * CLI, the image tag and the package (docker/test-image.sh reads it here).
 * A build may override it with -DSUDOKUD_VERSION='"x.y.z"'. */
#ifndef SUDOKUD_VERSION_H
#define SUDOKUD_VERSION_H

#ifndef SUDOKUD_VERSION
#define SUDOKUD_VERSION "0.1.0"
#endif

#endif
