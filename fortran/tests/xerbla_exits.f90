! Error exits seen from Fortran: this program's own XERBLA must replace
! libecgemm_blas's weak default, receive 'SGEMM ' and netlib's INFO for the
! first bad argument, and C must stay untouched.
module xerbla_record
  implicit none
  integer :: calls = 0, last_info = 0, last_len = 0
  character(len=16) :: last_name = ''
end module

subroutine xerbla(srname, info)
  use xerbla_record
  implicit none
  character(len=*), intent(in) :: srname
  integer, intent(in) :: info
  calls = calls + 1
  last_info = info
  last_len = len(srname)
  last_name = srname
end subroutine

program xerbla_exits
  use xerbla_record
  implicit none
  external :: sgemm
  real, parameter :: sentinel = -7.25
  real :: a(64), b(64), c(64)
  integer :: failures = 0

  call random_number(a)
  call random_number(b)
  call expect('transa', 'X', 'N', 4, 3, 2, 4, 2, 4, 1)
  call expect('transa before m', 'x', 'N', -1, 3, 2, 4, 2, 4, 1)
  call expect('transb', 'N', 'Q', 4, 3, 2, 4, 2, 4, 2)
  call expect('m', 'N', 'N', -1, 3, 2, 4, 2, 4, 3)
  call expect('n', 'N', 'N', 4, -1, 2, 4, 2, 4, 4)
  call expect('k', 'N', 'N', 4, 3, -1, 4, 2, 4, 5)
  call expect('lda < m', 'N', 'N', 4, 3, 2, 3, 2, 4, 8)
  call expect('lda < k (transposed)', 'T', 'N', 4, 3, 6, 5, 6, 4, 8)
  call expect('ldb < k', 'n', 'n', 4, 3, 5, 4, 4, 4, 10)
  call expect('ldb < n (transposed)', 'N', 'c', 4, 3, 2, 4, 2, 4, 10)
  call expect('ldc < m', 'N', 'N', 4, 3, 2, 4, 2, 3, 13)
  call expect('ldc < 1 before the quick return', 'N', 'N', 0, 0, 0, 1, 1, 0, 13)
  call expect('valid', 't', 'N', 4, 3, 2, 2, 2, 4, 0)
  print '(a, i0, a)', 'xerbla_exits (Fortran): ', failures, ' failure(s)'
  if (failures /= 0) error stop 1

contains

  subroutine expect(label, ta, tb, m, n, k, lda, ldb, ldc, want)
    character(len=*), intent(in) :: label
    character, intent(in) :: ta, tb
    integer, intent(in) :: m, n, k, lda, ldb, ldc, want
    logical :: ok
    c = sentinel
    calls = 0
    last_info = 0
    call sgemm(ta, tb, m, n, k, 1.5, a, lda, b, ldb, 0.5, c, ldc)
    if (want == 0) then
      ok = calls == 0
    else
      ok = calls == 1 .and. last_info == want .and. last_name == 'SGEMM' .and. last_len == 6 &
           .and. .not. any(abs(c - sentinel) > 0)
    end if
    if (.not. ok) then
      print '(a, a, a, i0, a, i0, a, i0)', 'FAIL ', label, ': want INFO=', want, ', got ', calls, &
          ' call(s) with INFO=', last_info
      failures = failures + 1
    end if
  end subroutine

end program
