#include "tilexform/cli/Commands.h"

int main(int argc, char **argv) { return tilexform::cli::run(argc, argv); }
