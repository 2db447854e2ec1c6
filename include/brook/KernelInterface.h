// What brcc-generated Brook+ bindings use: functors launching a kernel of an
// embedded .br source, with Brook+'s per-launch domainOffset/domainSize.
// `brook cc --brookplus` writes the bindings; a program only calls them:
//
//   copy.domainSize(uint4(5, 5, 1, 1));   // the next launch only
//   copy(in, out);
#pragma once

#include "brook/Stream.h"

#ifndef __THREAD__
#define __THREAD__ thread_local
#endif

// Inside a generated functor class: the launch controls, reset after each launch.
#define EXTENDCLASS()                                                                     \
 public:                                                                                  \
  void domainOffset(const uint4& o) {                                                     \
    brook_domain_.offset[0] = o.x, brook_domain_.offset[1] = o.y;                         \
  }                                                                                       \
  void domainSize(const uint4& s) {                                                       \
    brook_domain_.size[0] = s.x, brook_domain_.size[1] = s.y, brook_domain_.sized = true; \
  }                                                                                       \
                                                                                          \
 protected:                                                                               \
  ::brook::plus::LaunchDomain brook_domain_

namespace brook::plus {

// Arguments of a launch by parameter kind (the generated code picks one).
template <class T>
void push_stream(Launch& l, const Stream<T>& s) {
  l.stream(s);
}
template <class T>
void push_value(Launch& l, const T& v) {
  l.value(&v, sizeof(T), StreamType<T>::name);
}
template <class T>
void push_reduce(Launch& l, T& out) {
  l.reduce_to(&out, sizeof(T), StreamType<T>::name);
}

}  // namespace brook::plus
