! An SGEMM on device arrays from plain gfortran (no CUDA Fortran): the ecgemm
! module allocates, fills and reads back device memory through libecgemm.
! Computes C = alpha * A**T * B + beta * C with a padded A and checks it against
! a double-precision host loop.
!
!   gfortran -I<prefix>/include device_sgemm.f90 -L<prefix>/lib -lecgemm_fortran -lecgemm
!   ./a.out [mode]      mode: tf32tf32 (default), halfhalf, fp32, tf32, fp16, markidis, auto
program device_sgemm
  use, intrinsic :: iso_c_binding
  use ecgemm
  implicit none
  integer(c_int), parameter :: m = 300, n = 200, k = 257, lda = k + 3, ldb = k, ldc = m
  real(c_float), parameter :: alpha = 1.5, beta = -0.5
  real(c_float), allocatable :: a(:, :), b(:, :), c(:, :), c0(:, :)
  type(c_ptr) :: handle, da, db, dc
  integer(c_int) :: mode
  character(len=16) :: mode_name
  real(c_double) :: tolerance, worst

  if (ecgemm_get_device_count() == 0) then
    print '(a)', 'device_sgemm: no CUDA device, nothing to run'
    stop 77
  end if
  mode_name = 'tf32tf32'
  if (command_argument_count() >= 1) call get_command_argument(1, mode_name)
  call select_mode(trim(mode_name), mode, tolerance)

  allocate(a(lda, m), b(ldb, n), c(ldc, n), c0(ldc, n))
  call random_number(a)
  call random_number(b)
  call random_number(c)
  a = 2 * a - 1       ! signed entries, all mantissa bits in use
  b = 2 * b - 1
  c0 = c

  call ecgemm_check(ecgemm_create(handle), 'ecgemm_create')
  call ecgemm_check(ecgemm_set_mode(handle, mode), 'ecgemm_set_mode')
  call ecgemm_check(ecgemm_device_alloc(da, size(a)), 'allocating A')
  call ecgemm_check(ecgemm_device_alloc(db, size(b)), 'allocating B')
  call ecgemm_check(ecgemm_device_alloc(dc, size(c)), 'allocating C')
  call ecgemm_check(ecgemm_copy_to_device(da, a), 'copying A')
  call ecgemm_check(ecgemm_copy_to_device(db, b), 'copying B')
  call ecgemm_check(ecgemm_copy_to_device(dc, c), 'copying C')

  call ecgemm_check(ecgemm_sgemm(handle, ECGEMM_OP_T, ECGEMM_OP_N, m, n, k, alpha, da, lda, &
                                 db, ldb, beta, dc, ldc), 'ecgemm_sgemm')
  call ecgemm_check(ecgemm_copy_to_host(c, dc), 'copying C back')

  worst = worst_relative_error()
  print '(a, a, a, es10.3, a, es10.3)', 'device_sgemm: mode ', trim(mode_name), &
      ', worst relative error ', worst, ', tolerance ', tolerance
  call ecgemm_check(ecgemm_device_free(da), 'freeing A')
  call ecgemm_check(ecgemm_device_free(db), 'freeing B')
  call ecgemm_check(ecgemm_device_free(dc), 'freeing C')
  call ecgemm_check(ecgemm_destroy(handle), 'ecgemm_destroy')
  if (.not. (worst <= tolerance)) error stop 'device_sgemm: FAIL'
  print '(a)', 'device_sgemm: ok'

contains

  ! |C - C_ref| / (|alpha| sum |a||b| + |beta c|), the largest over C.
  function worst_relative_error() result(worst)
    real(c_double) :: worst, want, scale
    integer :: i, j
    worst = 0
    do j = 1, n
      do i = 1, m
        want = alpha * dot_product(real(a(1:k, i), c_double), real(b(1:k, j), c_double)) &
               + beta * real(c0(i, j), c_double)
        scale = abs(alpha) * dot_product(abs(real(a(1:k, i), c_double)), &
                                         abs(real(b(1:k, j), c_double))) &
                + abs(beta * real(c0(i, j), c_double))
        worst = max(worst, abs(c(i, j) - want) / scale)
      end do
    end do
  end function

  ! The mode's enumerator and the relative error it must stay within.
  subroutine select_mode(name, mode, tolerance)
    character(len=*), intent(in) :: name
    integer(c_int), intent(out) :: mode
    real(c_double), intent(out) :: tolerance
    real(c_double), parameter :: u = 2.0_c_double**(-24)
    select case (name)
    case ('tf32tf32')
      mode = ECGEMM_MODE_TF32TF32
      tolerance = 2.0_c_double**(-20) + 2 * (k + 2) * u
    case ('halfhalf')
      mode = ECGEMM_MODE_HALFHALF
      tolerance = 2.0_c_double**(-20) + 2 * (k + 2) * u
    case ('auto')
      mode = ECGEMM_MODE_AUTO
      tolerance = 2.0_c_double**(-20) + 2 * (k + 2) * u
    case ('fp32')
      mode = ECGEMM_MODE_FP32
      tolerance = 2 * (k + 2) * u
    case ('markidis')
      mode = ECGEMM_MODE_MARKIDIS
      tolerance = 2.0_c_double**(-18) + 4 * (k + 2) * u
    case ('tf32')
      mode = ECGEMM_MODE_TF32
      tolerance = 2.0_c_double**(-9) + 4 * (k + 2) * u
    case ('fp16')
      mode = ECGEMM_MODE_FP16
      tolerance = 2.0_c_double**(-9) + 4 * (k + 2) * u
    case default
      print '(a, a)', 'device_sgemm: unknown mode ', name
      error stop 2
    end select
  end subroutine

end program
