# Our own code builds with -Wall -Wextra -Werror; dependencies are included as SYSTEM.
function(brook_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()
