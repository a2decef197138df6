// A one-shot allocation failure for out-of-memory tests: the program's
// operator new and delete (every form) replaced by malloc and free, with a
// countdown that makes one chosen allocation throw std::bad_alloc. Linked
// only into martiandice_memory_tests: replacing operator new costs the
// sanitizers their new/delete mismatch checks, which the main suite keeps;
// malloc and free stay theirs, so a bad free after the failure is still caught.
#pragma once

namespace allocation_failure {

// Makes the n-th allocation from now (n >= 1, counted over every thread)
// throw std::bad_alloc; the ones before and after it succeed.
void FailAt(long long n);

// Disarms a failure not yet reached. Returns whether the armed one happened.
bool Disarm();

// Allocations made since the last FailAt or Count (for sizing a sweep).
long long Count();

}  // namespace allocation_failure
