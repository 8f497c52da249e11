// Placeholder entry point; the CLI (option parsing, commands) replaces it.
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
        std::printf("aptus %s\n", APTUS_VERSION);
        return 0;
    }
    std::fprintf(stderr, "E: no command given\n");
    return 100;
}
