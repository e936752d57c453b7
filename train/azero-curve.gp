# AlphaZero-lite beside the n-tuple learner on Connect-4 7x6 (issue 46), from the CSVs that
# oxo-train --curve wrote: the share of the 1,000 shipped judged positions where the bare network
# keeps the value, and the games it wins as X against the perfect player, against self-play games
# (left) and against seconds of training (right: grading left out; the n-tuple run's seconds are
# summed from its episodes_per_second column, 50,000 games a point). Seed 1, this 2-core machine.
#   n-tuple, the defaults:  see train/ntuple-curve.gp (train/ntuple-connect4-defaults.csv)
#   azero, session 43:      timeout -s INT 2640 oxo-train --algo azero --game connect4 \
#                               --eval-every 200 --curve train/azero-connect4.csv
#   azero, session 44:      oxo-train --algo azero --game connect4 -e 5000 --eval-every 500 \
#                               --perfect-games 0 --alpha 0.002 --alpha-end 0.0001 \
#                               --alpha-schedule exponential --alpha-length 5000 \
#                               --checkpoint-every 500 --curve long.csv
#                           cut -d, -f1,3,4,21 long.csv > train/azero-connect4-value-q.csv
#   azero, session 51 (the defaults since: the lines, the threats, random moves in 3 games of 4):
#                           timeout -s INT 3600 oxo-train --algo azero --game connect4 -e 4000 \
#                               --eval-every 500 --perfect-games 0 --alpha 0.002 \
#                               --alpha-end 0.0001 --alpha-schedule exponential \
#                               --alpha-length 4000 --seed S --curve C
#                           (S 1: train/azero-connect4-searchvalue.csv, S 2: ...-searchvalue-2.csv)
#   gnuplot train/azero-curve.gp
set terminal svg size 1000,480 font "sans,12" background rgb "white"
set output "train/azero-connect4.svg"
set datafile separator ","
set key below
set ylabel "share"
set yrange [0:1.01]
set grid
nt = "train/ntuple-connect4-defaults.csv"
az43 = "train/azero-connect4.csv"
az44 = "train/azero-connect4-value-q.csv"
az51 = "train/azero-connect4-searchvalue.csv"
az51b = "train/azero-connect4-searchvalue-2.csv"
set multiplot layout 1,2 title "Connect-4 7x6, seed 1 unless said: AlphaZero-lite (2 x 256 MLP, 100 simulations a move) and the n-tuple learner (140 tuples)"
set xlabel "self-play games"
set logscale x
set format x "%.0s%c"
plot nt every ::1 using 1:4 with linespoints lw 2 lc rgb "#1f77b4" title "n-tuple: value kept", \
     nt every ::1 using 1:($16/$15) with linespoints lw 1 lc rgb "#1f77b4" dt 2 title "n-tuple: won as X vs perfect", \
     az43 every ::1 using ($1*64):2 with linespoints lw 2 lc rgb "#d62728" title "azero (session 43): value kept", \
     az43 every ::1 using ($1*64):($3/200) with lines lw 1 lc rgb "#d62728" dt 2 title "azero (session 43): won as X vs perfect", \
     az44 every ::1 using ($1*64):3 with linespoints lw 2 lc rgb "#2ca02c" title "azero (value-q 0.5, rate falling): value kept", \
     az51 every ::1 using ($1*64):4 with linespoints lw 2 lc rgb "#9467bd" title "azero (session 51 defaults, seed 1): value kept", \
     az51b every ::1 using ($1*64):4 with linespoints lw 1 lc rgb "#9467bd" dt 3 title "azero (session 51 defaults, seed 2): value kept"
set xlabel "seconds of training"
set format x "%g"
t = 0
u = 0
plot nt every ::1 using (t = t + 50000/$14, t):4 with linespoints lw 2 lc rgb "#1f77b4" notitle, \
     nt every ::1 using (u = u + 50000/$14, u):($16/$15) with linespoints lw 1 lc rgb "#1f77b4" dt 2 notitle, \
     az43 every ::1 using 7:2 with linespoints lw 2 lc rgb "#d62728" notitle, \
     az43 every ::1 using 7:($3/200) with lines lw 1 lc rgb "#d62728" dt 2 notitle, \
     az44 every ::1 using 4:3 with linespoints lw 2 lc rgb "#2ca02c" notitle, \
     az51 every ::1 using 21:4 with linespoints lw 2 lc rgb "#9467bd" notitle, \
     az51b every ::1 using 21:4 with linespoints lw 1 lc rgb "#9467bd" dt 3 notitle
unset multiplot
