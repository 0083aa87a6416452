// Forks without end: every child forks too. Each process reports its first refused fork once.
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  int reported = 0;
  for (;;) {
    if (fork() < 0) {
      if (!reported) fprintf(stderr, "fork refused: errno %d\n", errno);
      reported = 1;
      usleep(1000);
    }
  }
}
