/* The CuPy situation: libcublas loaded only as a dependency of a library opened with
 * RTLD_LOCAL, so it is not in the global scope where RTLD_NEXT looks. A valid FP32
 * call must still reach it (libecgemm_cublas finds it by soname), and print
 * `status=<s> reached=<0|1>`. Argument: the path of libplugin.so. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  void* plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (plugin == NULL) {
    fprintf(stderr, "local_scope: %s\n", dlerror());
    return 2;
  }
  int (*run)(int*) = (int (*)(int*))dlsym(plugin, "plugin_sgemm");
  if (run == NULL) return 2;
  int reached = 0;
  const int status = run(&reached);
  printf("status=%d reached=%d\n", status, reached);
  return 0;
}
