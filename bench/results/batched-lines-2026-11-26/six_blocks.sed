s|^constexpr int kLinesBlocksPerSm = 4;   // ... at most 64 registers a thread|constexpr int lines_blocks_per_sm(int64_t width) { return width == 1 ? 6 : 4; }|
s|__launch_bounds__(kThreads, kLinesBlocksPerSm)|__launch_bounds__(kThreads, lines_blocks_per_sm(R))|
s|(plan.line_lanes > 0 ? kLinesBlocksPerSm :|(plan.line_lanes > 0 ? lines_blocks_per_sm(width) :|
