! Fortran interface to ecgemm (include/ecgemm.h) through iso_c_binding.
!
! Every C function has a bind(C) interface of the same name; the C enums are
! enum, bind(c) constants; device arrays are type(c_ptr) passed by value, sizes
! integer(c_int) by value, alpha and beta by reference. ecgemm_sgemm is generic:
! REAL alpha/beta for the host pointer mode (the default), type(c_ptr) for
! ECGEMM_POINTER_MODE_DEVICE.
!
! For gfortran programs without CUDA Fortran, the helpers at the end allocate,
! fill, read back and address device arrays through libecgemm, and turn status
! codes into messages. Build: gfortran -I<prefix>/include prog.f90
!   -L<prefix>/lib -lecgemm_fortran -lecgemm   (the .mod file is compiler-specific)
module ecgemm
  use, intrinsic :: iso_c_binding
  implicit none
  private :: c_strlen, device_alloc_i32, device_alloc_i64, copy_to_device_r1, copy_to_device_r2, &
             copy_to_host_r1, copy_to_host_r2, bytes_of

  integer(c_int), parameter :: ECGEMM_VERSION_MAJOR = 0
  integer(c_int), parameter :: ECGEMM_VERSION_MINOR = 1
  integer(c_int), parameter :: ECGEMM_VERSION_PATCH = 0
  integer(c_int), parameter :: ECGEMM_VERSION = &
      ECGEMM_VERSION_MAJOR * 10000 + ECGEMM_VERSION_MINOR * 100 + ECGEMM_VERSION_PATCH

  ! ecgemmStatus_t
  enum, bind(c)
    enumerator :: ECGEMM_STATUS_SUCCESS = 0
    enumerator :: ECGEMM_STATUS_NOT_INITIALIZED = 1
    enumerator :: ECGEMM_STATUS_ALLOC_FAILED = 3
    enumerator :: ECGEMM_STATUS_INVALID_VALUE = 7
    enumerator :: ECGEMM_STATUS_ARCH_MISMATCH = 8
    enumerator :: ECGEMM_STATUS_EXECUTION_FAILED = 13
    enumerator :: ECGEMM_STATUS_INTERNAL_ERROR = 14
    enumerator :: ECGEMM_STATUS_NOT_SUPPORTED = 15
    enumerator :: ECGEMM_STATUS_NO_DEVICE = 16
  end enum

  ! ecgemmMode_t
  enum, bind(c)
    enumerator :: ECGEMM_MODE_TF32TF32 = 0
    enumerator :: ECGEMM_MODE_HALFHALF = 1
    enumerator :: ECGEMM_MODE_FP32 = 2
    enumerator :: ECGEMM_MODE_TF32 = 3
    enumerator :: ECGEMM_MODE_FP16 = 4
    enumerator :: ECGEMM_MODE_MARKIDIS = 5
    enumerator :: ECGEMM_MODE_AUTO = 6
  end enum

  ! ecgemmOperation_t
  enum, bind(c)
    enumerator :: ECGEMM_OP_N = 0
    enumerator :: ECGEMM_OP_T = 1
    enumerator :: ECGEMM_OP_C = 2
  end enum

  ! ecgemmPointerMode_t
  enum, bind(c)
    enumerator :: ECGEMM_POINTER_MODE_HOST = 0
    enumerator :: ECGEMM_POINTER_MODE_DEVICE = 1
  end enum

  ! ecgemmDeviceMemHandler_t: a stream-ordered allocator for the handle's scratch
  ! (device_alloc and device_free are C-interoperable functions, c_funloc of them).
  type, bind(c) :: ecgemm_device_mem_handler
    type(c_ptr) :: ctx
    type(c_funptr) :: device_alloc
    type(c_funptr) :: device_free
    character(kind=c_char) :: name(64)
  end type

  interface
    function ecgemm_get_status_string(status) bind(C, name="ecgemm_get_status_string") result(str)
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: str
    end function

    function ecgemm_get_status_name(status) bind(C, name="ecgemm_get_status_name") result(str)
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: str
    end function

    function ecgemm_get_version() bind(C, name="ecgemm_get_version") result(version)
      import :: c_int
      integer(c_int) :: version
    end function

    function ecgemm_get_last_error_arg() bind(C, name="ecgemm_get_last_error_arg") result(arg)
      import :: c_int
      integer(c_int) :: arg
    end function

    function ecgemm_create(handle) bind(C, name="ecgemm_create") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
      integer(c_int) :: status
    end function

    function ecgemm_destroy(handle) bind(C, name="ecgemm_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int) :: status
    end function

    function ecgemm_set_stream(handle, stream) bind(C, name="ecgemm_set_stream") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, stream
      integer(c_int) :: status
    end function

    function ecgemm_get_stream(handle, stream) bind(C, name="ecgemm_get_stream") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: stream
      integer(c_int) :: status
    end function

    function ecgemm_set_mode(handle, mode) bind(C, name="ecgemm_set_mode") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: mode
      integer(c_int) :: status
    end function

    function ecgemm_get_mode(handle, mode) bind(C, name="ecgemm_get_mode") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: mode
      integer(c_int) :: status
    end function

    function ecgemm_set_pointer_mode(handle, mode) bind(C, name="ecgemm_set_pointer_mode") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: mode
      integer(c_int) :: status
    end function

    function ecgemm_get_pointer_mode(handle, mode) bind(C, name="ecgemm_get_pointer_mode") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: mode
      integer(c_int) :: status
    end function

    function ecgemm_get_device(handle, device) bind(C, name="ecgemm_get_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: device
      integer(c_int) :: status
    end function

    function ecgemm_set_workspace(handle, workspace, bytes) bind(C, name="ecgemm_set_workspace") &
        result(status)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, workspace
      integer(c_size_t), value :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_get_workspace_size(handle, m, n, k, bytes) &
        bind(C, name="ecgemm_get_workspace_size") result(status)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: m, n, k
      integer(c_size_t), intent(out) :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_get_workspace_size_64(handle, transa, transb, m, n, k, lda, ldb, ldc, &
        batch_count, pointer_arrays, bytes) bind(C, name="ecgemm_get_workspace_size_64") &
        result(status)
      import :: c_int, c_int64_t, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb, pointer_arrays
      integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batch_count
      integer(c_size_t), intent(out) :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_set_workspace_limit(handle, bytes) bind(C, name="ecgemm_set_workspace_limit") &
        result(status)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_size_t), value :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_get_workspace_limit(handle, bytes) bind(C, name="ecgemm_get_workspace_limit") &
        result(status)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_size_t), intent(out) :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_release_workspace(handle) bind(C, name="ecgemm_release_workspace") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int) :: status
    end function

    ! handler: c_loc of a target ecgemm_device_mem_handler, or c_null_ptr for the pool.
    function ecgemm_set_device_mem_handler(handle, handler) &
        bind(C, name="ecgemm_set_device_mem_handler") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, handler
      integer(c_int) :: status
    end function

    function ecgemm_get_device_mem_handler(handle, handler) &
        bind(C, name="ecgemm_get_device_mem_handler") result(status)
      import :: c_int, c_ptr, ecgemm_device_mem_handler
      type(c_ptr), value :: handle
      type(ecgemm_device_mem_handler), intent(out) :: handler
      integer(c_int) :: status
    end function

    function ecgemm_get_mode_name(mode) bind(C, name="ecgemm_get_mode_name") result(str)
      import :: c_int, c_ptr
      integer(c_int), value :: mode
      type(c_ptr) :: str
    end function

    ! name: a NUL-terminated string, e.g. "halfhalf" // c_null_char.
    function ecgemm_get_mode_by_name(name, mode) bind(C, name="ecgemm_get_mode_by_name") &
        result(status)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int), intent(out) :: mode
      integer(c_int) :: status
    end function

    function ecgemm_device_malloc(ptr, bytes) bind(C, name="ecgemm_device_malloc") result(status)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_device_free(ptr) bind(C, name="ecgemm_device_free") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ptr
      integer(c_int) :: status
    end function

    function ecgemm_memcpy_to_device(dst, src, bytes) bind(C, name="ecgemm_memcpy_to_device") &
        result(status)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_memcpy_to_host(dst, src, bytes) bind(C, name="ecgemm_memcpy_to_host") &
        result(status)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int) :: status
    end function

    function ecgemm_device_synchronize() bind(C, name="ecgemm_device_synchronize") result(status)
      import :: c_int
      integer(c_int) :: status
    end function

    function ecgemm_get_device_count() bind(C, name="ecgemm_get_device_count") result(count)
      import :: c_int
      integer(c_int) :: count
    end function

    function c_strlen(str) bind(C, name="strlen") result(length)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: str
      integer(c_size_t) :: length
    end function
  end interface

  ! C = alpha * op(A) * op(B) + beta * C, column-major; A, B, C are device arrays.
  interface ecgemm_sgemm
    ! alpha, beta in host memory (ECGEMM_POINTER_MODE_HOST, the default).
    function ecgemm_sgemm_host_scalars(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, &
                                       beta, C, ldc) bind(C, name="ecgemm_sgemm") result(status)
      import :: c_int, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb, m, n, k
      real(c_float), intent(in) :: alpha
      type(c_ptr), value :: A
      integer(c_int), value :: lda
      type(c_ptr), value :: B
      integer(c_int), value :: ldb
      real(c_float), intent(in) :: beta
      type(c_ptr), value :: C
      integer(c_int), value :: ldc
      integer(c_int) :: status
    end function

    ! alpha, beta in device memory (ECGEMM_POINTER_MODE_DEVICE).
    function ecgemm_sgemm_device_scalars(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, &
                                         beta, C, ldc) bind(C, name="ecgemm_sgemm") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb, m, n, k
      type(c_ptr), value :: alpha
      type(c_ptr), value :: A
      integer(c_int), value :: lda
      type(c_ptr), value :: B
      integer(c_int), value :: ldb
      type(c_ptr), value :: beta
      type(c_ptr), value :: C
      integer(c_int), value :: ldc
      integer(c_int) :: status
    end function
  end interface

  ! 64-bit sizes (cuBLAS's _64) and batched products; alpha, beta in host memory. A, B, C
  ! are device arrays; in ecgemm_sgemm_batched[_64] they are device arrays of device
  ! addresses (type(c_ptr) each). Strides count elements between consecutive products.
  interface
    function ecgemm_sgemm_64(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, &
                             ldc) bind(C, name="ecgemm_sgemm_64") result(status)
      import :: c_int, c_int64_t, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb
      integer(c_int64_t), value :: m, n, k
      real(c_float), intent(in) :: alpha, beta
      type(c_ptr), value :: A, B, C
      integer(c_int64_t), value :: lda, ldb, ldc
      integer(c_int) :: status
    end function

    function ecgemm_sgemm_strided_batched(handle, transa, transb, m, n, k, alpha, A, lda, strideA, &
                                          B, ldb, strideB, beta, C, ldc, strideC, batch_count) &
        bind(C, name="ecgemm_sgemm_strided_batched") result(status)
      import :: c_int, c_long_long, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb, m, n, k, lda, ldb, ldc, batch_count
      real(c_float), intent(in) :: alpha, beta
      type(c_ptr), value :: A, B, C
      integer(c_long_long), value :: strideA, strideB, strideC
      integer(c_int) :: status
    end function

    function ecgemm_sgemm_strided_batched_64(handle, transa, transb, m, n, k, alpha, A, lda, &
                                             strideA, B, ldb, strideB, beta, C, ldc, strideC, &
                                             batch_count) &
        bind(C, name="ecgemm_sgemm_strided_batched_64") result(status)
      import :: c_int, c_int64_t, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb
      integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, strideA, strideB, strideC, batch_count
      real(c_float), intent(in) :: alpha, beta
      type(c_ptr), value :: A, B, C
      integer(c_int) :: status
    end function

    function ecgemm_sgemm_batched(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, &
                                  C, ldc, batch_count) bind(C, name="ecgemm_sgemm_batched") &
        result(status)
      import :: c_int, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb, m, n, k, lda, ldb, ldc, batch_count
      real(c_float), intent(in) :: alpha, beta
      type(c_ptr), value :: A, B, C
      integer(c_int) :: status
    end function

    function ecgemm_sgemm_batched_64(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, &
                                     beta, C, ldc, batch_count) &
        bind(C, name="ecgemm_sgemm_batched_64") result(status)
      import :: c_int, c_int64_t, c_ptr, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: transa, transb
      integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batch_count
      real(c_float), intent(in) :: alpha, beta
      type(c_ptr), value :: A, B, C
      integer(c_int) :: status
    end function
  end interface

  ! ecgemm_device_alloc(dptr, count): count REAL(c_float) elements on the current device.
  interface ecgemm_device_alloc
    module procedure device_alloc_i32, device_alloc_i64
  end interface

  ! ecgemm_copy_to_device(dptr, host): the whole (contiguous) host array into dptr.
  interface ecgemm_copy_to_device
    module procedure copy_to_device_r1, copy_to_device_r2
  end interface

  ! ecgemm_copy_to_host(host, dptr): size(host) elements from dptr into the host array.
  interface ecgemm_copy_to_host
    module procedure copy_to_host_r1, copy_to_host_r2
  end interface

contains

  ! A C string owned by the library, as a Fortran string.
  function ecgemm_string(cstr) result(str)
    type(c_ptr), intent(in) :: cstr
    character(len=:), allocatable :: str
    character(kind=c_char), pointer :: chars(:)
    integer :: i, length
    if (.not. c_associated(cstr)) then
      str = ''
      return
    end if
    length = int(c_strlen(cstr))
    call c_f_pointer(cstr, chars, [length])
    allocate(character(len=length) :: str)
    do i = 1, length
      str(i:i) = chars(i)
    end do
  end function

  function ecgemm_status_string(status) result(str)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: str
    str = ecgemm_string(ecgemm_get_status_string(status))
  end function

  function ecgemm_status_name(status) result(str)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: str
    str = ecgemm_string(ecgemm_get_status_name(status))
  end function

  ! Stops the program with the status's name and message unless it is success.
  subroutine ecgemm_check(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status == ECGEMM_STATUS_SUCCESS) return
    write (*, '(a, ": ", a, " (", a, ")")') what, ecgemm_status_name(status), &
        ecgemm_status_string(status)
    error stop 1
  end subroutine

  ! The device address `elements` REAL(c_float) entries past dptr: the start of a
  ! column or sub-matrix, e.g. ecgemm_offset(dA, (j - 1) * lda + (i - 1)) for A(i, j).
  function ecgemm_offset(dptr, elements) result(shifted)
    type(c_ptr), intent(in) :: dptr
    integer(c_int64_t), intent(in) :: elements
    type(c_ptr) :: shifted
    real(c_float), pointer :: view(:)
    ! Address arithmetic only: the device memory behind `view` is never touched.
    call c_f_pointer(dptr, view, [elements + 1])
    shifted = c_loc(view(elements + 1))
  end function

  pure function bytes_of(count) result(bytes)
    integer(c_int64_t), intent(in) :: count
    integer(c_size_t) :: bytes
    bytes = int(count, c_size_t) * c_sizeof(0.0_c_float)
  end function

  function device_alloc_i64(dptr, count) result(status)
    type(c_ptr), intent(out) :: dptr
    integer(c_int64_t), intent(in) :: count
    integer(c_int) :: status
    status = ecgemm_device_malloc(dptr, bytes_of(count))
  end function

  function device_alloc_i32(dptr, count) result(status)
    type(c_ptr), intent(out) :: dptr
    integer(c_int32_t), intent(in) :: count
    integer(c_int) :: status
    status = device_alloc_i64(dptr, int(count, c_int64_t))
  end function

  function copy_to_device_r1(dptr, host) result(status)
    type(c_ptr), intent(in) :: dptr
    real(c_float), intent(in), target, contiguous :: host(:)
    integer(c_int) :: status
    status = ECGEMM_STATUS_SUCCESS
    if (size(host) > 0) &
      status = ecgemm_memcpy_to_device(dptr, c_loc(host), bytes_of(size(host, kind=c_int64_t)))
  end function

  function copy_to_device_r2(dptr, host) result(status)
    type(c_ptr), intent(in) :: dptr
    real(c_float), intent(in), target, contiguous :: host(:, :)
    integer(c_int) :: status
    status = ECGEMM_STATUS_SUCCESS
    if (size(host) > 0) &
      status = ecgemm_memcpy_to_device(dptr, c_loc(host), bytes_of(size(host, kind=c_int64_t)))
  end function

  function copy_to_host_r1(host, dptr) result(status)
    real(c_float), intent(inout), target, contiguous :: host(:)
    type(c_ptr), intent(in) :: dptr
    integer(c_int) :: status
    status = ECGEMM_STATUS_SUCCESS
    if (size(host) > 0) &
      status = ecgemm_memcpy_to_host(c_loc(host), dptr, bytes_of(size(host, kind=c_int64_t)))
  end function

  function copy_to_host_r2(host, dptr) result(status)
    real(c_float), intent(inout), target, contiguous :: host(:, :)
    type(c_ptr), intent(in) :: dptr
    integer(c_int) :: status
    status = ECGEMM_STATUS_SUCCESS
    if (size(host) > 0) &
      status = ecgemm_memcpy_to_host(c_loc(host), dptr, bytes_of(size(host, kind=c_int64_t)))
  end function

end module ecgemm
