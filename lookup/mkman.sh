#!/bin/sh
# Writes the manual page of an oxo program from its own --help and --version, so that the page
# says exactly what the program does today: mkman.sh PROGRAM NAME OUTPUT.1
set -eu
prog=$1 name=$2 out=$3
help=$("$prog" --help)
version=$("$prog" --version | head -1 | sed 's/^[^ ]* //')
# The first paragraph after the usage line says what the program does; its first sentence names
# the page.
what=$(printf '%s\n' "$help" | sed -n '2,/^$/p' | tr '\n' ' ' | sed -e 's/\. .*//' -e 's/ *$//' -e 's/\.$//')
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
{
    printf '.TH %s 1 "" "oxo %s" "oxo manual"\n' "$(printf %s "$name" | tr a-z A-Z)" "$version"
    printf '.SH NAME\n%s \\- %s\n' "$name" "$(printf '%s' "$what" | esc)"
    printf '.SH SYNOPSIS\n'
    printf '%s\n' "$help" | sed -n '1s/^Usage: //p' | esc
    printf '.SH DESCRIPTION\n.nf\n'
    printf '%s\n' "$help" | sed '1d' | esc
    printf '.fi\n'
    # EXAMPLES, ENVIRONMENT and EXIT STATUS from man/NAME.txt beside this script: a section's name
    # on a line of its own; under EXAMPLES a command and the line that says what it does; under
    # the others KEY|TEXT.
    sections=$(dirname "$0")/man/$name.txt
    if [ -f "$sections" ]; then
        awk '
            function esc(t) { gsub(/\\/, "\\e", t); sub(/^[.\047]/, "\\\\\\&&", t); return t }
            /^(EXAMPLES|ENVIRONMENT|EXIT STATUS)$/ { sec = $0; print ".SH " sec; cmd = ""; next }
            sec == "EXAMPLES" && cmd == "" { cmd = $0; next }
            sec == "EXAMPLES" { print ".TP"; print "\\fB" esc(cmd) "\\fR"; print esc($0); cmd = ""; next }
            { i = index($0, "|"); print ".TP"; print "\\fB" esc(substr($0, 1, i - 1)) "\\fR"; print esc(substr($0, i + 1)) }
        ' "$sections"
    fi
    printf '.SH FILES\nShipped tables and models are looked for in $OXO_DATA_DIR, then in the current\n'
    printf 'folder, then in\n.I ../share/oxo\nbeside the program.\n'
    printf '.SH SEE ALSO\n'
    for p in oxo-gen oxo-train oxo-play oxo-export oxo-arena; do
        [ "$p" = "$name" ] || printf '.BR %s (1)\n' "$p"
    done
    printf '.BR liboxo (3)\n'
} >"$out.tmp"
mv "$out.tmp" "$out"
