;; The per-line passes of the text path that read each line's first units, in WebAssembly: the
;; line template (readers/line-template.ts `lineTemplate`, interned to dense ids as
;; engine/text-signals.ts does), the line's level where it is plain to read (readers/line-level.ts
;; `detectLevel`, the rest left to it), the rare-code slots (engine/rare-line-codes.ts, its
;; per-line loop) and the measured numbers (engine/line-measures.ts, its per-line loop). The source of line-scan-wasm.ts: `pnpm build:wasm` compiles it with wabt and a test
;; fails when the two differ. Each function gives exactly what its JavaScript twin gives (a test
;; runs both over many shapes of log); the JavaScript stays the fallback where WebAssembly is
;; unavailable (`node --jitless`).
;;
;; The caller lays the memory out (line-scan.ts) and sizes it for the whole text up front:
;; JavaScript views of a memory that grows are detached, and one detach in a process slows every
;; typed-array loop in it. Bytes [0, 131072) hold two tables of every UTF-16 unit (below); a
;; text's units, its row starts and the per-row outputs lie past them, at addresses the caller
;; passes.
(module
  (import "env" "memory" (memory 1))

  ;; Per unit at [0, 65536), its class for the template (`CLASS_OF_UNIT` in line-template.ts): 1
  ;; a word unit ([A-Za-z_], and every unit from 0x80: `$fillTables`), 3 a digit (a word unit and
  ;; a digit), 0 the rest. Helpers such as "the unit at i" and "its class" are written out where
  ;; they are used: V8 (Node 20) does not inline calls between WebAssembly functions, and a call
  ;; per unit costs more than the read.
  (data (i32.const 0)
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\03\03\03\03\03\03\03\03\03\03\00\00\00\00\00\00"
    "\00\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01"
    "\01\01\01\01\01\01\01\01\01\01\01\00\00\00\00\01"
    "\00\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01"
    "\01\01\01\01\01\01\01\01\01\01\01\00\00\00\00\00")
  ;; Per unit at [65536, 131072), its kind for a code (`UNIT_KIND` in rare-line-codes.ts): 3 a
  ;; digit, 2 a letter or `_`, 1 a unit joining digits into one number (`.`, `:`, `-`, `/`), 0
  ;; the rest, every unit from 0x80 included.
  (data (i32.const 65536)
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\01\01\01"
    "\03\03\03\03\03\03\03\03\03\03\01\00\00\00\00\00"
    "\00\02\02\02\02\02\02\02\02\02\02\02\02\02\02\02"
    "\02\02\02\02\02\02\02\02\02\02\02\00\00\00\00\02"
    "\00\02\02\02\02\02\02\02\02\02\02\02\02\02\02\02"
    "\02\02\02\02\02\02\02\02\02\02\02\00\00\00\00\00")

  ;; Every unit from 0x80 is a word unit for the template, and of kind 0 for a code: a table of
  ;; every unit is one load per unit, where a table of ASCII takes a compare and a select first.
  (func $fillTables (memory.fill (i32.const 0x80) (i32.const 1) (i32.const 0xff80)))
  (start $fillTables)

  ;; Templates interned so far (the next template's id).
  (global $templates (export "templates") (mut i32) (i32.const 0))

  ;; `skipTerminalEscape` (line-level.ts): where the escape sequence at `$at` (an ESC) ends.
  (func $skipEscape (param $units i32) (param $at i32) (param $end i32) (result i32)
    (local $i i32) (local $kind i32) (local $c i32)
    (local.set $i (i32.add (local.get $at) (i32.const 1)))
    (if (i32.ge_s (local.get $i) (local.get $end)) (then (return (local.get $end))))
    (local.set $kind (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
    (if (i32.eq (local.get $kind) (i32.const 0x5b))
      (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (block $out
          (loop $next
            (br_if $out (i32.ge_s (local.get $i) (local.get $end)))
            (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
            (if (i32.le_u (i32.sub (local.get $c) (i32.const 0x40)) (i32.const 0x3e))
              (then (return (i32.add (local.get $i) (i32.const 1)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $next)))
        (return (local.get $end))))
    (if (i32.or
          (i32.or (i32.eq (local.get $kind) (i32.const 0x5f)) (i32.eq (local.get $kind) (i32.const 0x5d)))
          (i32.eq (local.get $kind) (i32.const 0x50)))
      (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (block $out
          (loop $next
            (br_if $out (i32.ge_s (local.get $i) (local.get $end)))
            (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
            (if (i32.eq (local.get $c) (i32.const 0x07))
              (then (return (i32.add (local.get $i) (i32.const 1)))))
            (if (i32.eq (local.get $c) (i32.const 0x1b))
              (then
                (return
                  (select
                    (local.get $end)
                    (i32.add (local.get $i) (i32.const 2))
                    (i32.lt_s (local.get $end) (i32.add (local.get $i) (i32.const 2)))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $next)))
        (return (local.get $end))))
    (i32.add (local.get $i) (i32.const 1)))

  ;; `lineTemplate` (line-template.ts) of the line at units [$from, $to), read from `$filled`.
  (func $lineTemplate (export "lineTemplate")
    (param $units i32) (param $from i32) (param $to i32) (param $filled i32) (result i32)
    (local $t i32)
    (local $end i32) (local $hash i32) (local $words i32) (local $lastVariable i32)
    (local $i i32) (local $code i32) (local $start i32) (local $variable i32)
    (local $wordHash i32) (local $c i32)
    (local.set $end (i32.add (local.get $from) (i32.const 200)))
    (if (i32.lt_s (local.get $to) (local.get $end)) (then (local.set $end (local.get $to))))
    (local.set $hash (i32.const 0x811c9dc5))
    (local.set $i (local.get $filled))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $i) (local.get $end)))
        (br_if $done (i32.ge_s (local.get $words) (i32.const 12)))
        (local.set $code (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
        (if (i32.eq (local.get $code) (i32.const 0x1b))
          (then
            (local.set $i (call $skipEscape (local.get $units) (local.get $i) (local.get $end)))
            (br $next)))
        (if (i32.eqz (i32.load8_u (local.get $code)))
          (then
            ;; Punctuation and spacing are stepped over in one run.
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (block $ran
              (loop $run
                (br_if $ran (i32.ge_s (local.get $i) (local.get $end)))
                (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
                (br_if $ran (i32.eq (local.get $c) (i32.const 0x1b)))
                (br_if $ran (i32.ne (i32.load8_u (local.get $c)) (i32.const 0)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $run)))
            (br $next)))
        (local.set $start (local.get $i))
        (local.set $variable (i32.const 0))
        (local.set $wordHash (local.get $hash))
        (block $ended
          (loop $word
            (br_if $ended (i32.ge_s (local.get $i) (local.get $end)))
            (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
            (br_if $ended (i32.ne (i32.load8_u (local.get $c)) (i32.const 1)))
            (local.set $wordHash
              (i32.mul (i32.xor (local.get $wordHash) (local.get $c)) (i32.const 0x01000193)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $word)))
        (if (i32.lt_s (local.get $i) (local.get $end))
          (then
            ;; `joinsVariable`: the unit that ended the word ($c) is a digit, or a `-` before one (the
            ;; unit after the text's last is in memory: the row starts follow the units).
            (if (i32.or
                  (i32.eq (i32.load8_u (local.get $c)) (i32.const 3))
                  (i32.and (i32.eq (local.get $c) (i32.const 0x2d))
                  (i32.and (i32.lt_s (i32.add (local.get $i) (i32.const 1)) (local.get $end))
                    (i32.le_u (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 1)))) (i32.const 0x30)) (i32.const 9)))))
              (then
                (local.set $variable (i32.const 1))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (block $skipped
                  (loop $skip
                    (br_if $skipped (i32.ge_s (local.get $i) (local.get $end)))
                    (if (i32.eqz
                          (i32.load8_u (local.tee $t (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))))
                      (then
                        (br_if $skipped
                          (i32.eqz
                            (i32.and (i32.eq (local.get $t) (i32.const 0x2d))
                  (i32.and (i32.lt_s (i32.add (local.get $i) (i32.const 1)) (local.get $end))
                    (i32.le_u (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 1)))) (i32.const 0x30)) (i32.const 9))))))))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $skip)))))))
        (if (i32.or (local.get $variable)
              (i32.ge_s (i32.sub (local.get $i) (local.get $start)) (i32.const 20)))
          (then
            (br_if $next (local.get $lastVariable))
            (local.set $lastVariable (i32.const 1))
            (local.set $hash
              (i32.mul (i32.xor (local.get $hash) (i32.const 0x23)) (i32.const 0x01000193))))
          (else
            (local.set $lastVariable (i32.const 0))
            (local.set $hash (local.get $wordHash))))
        (local.set $hash
          (i32.mul (i32.xor (local.get $hash) (i32.const 0x20)) (i32.const 0x01000193)))
        (local.set $words (i32.add (local.get $words) (i32.const 1)))
        (br $next)))
    (local.get $hash))

  ;; For rows [$first, $last) of a text of `$length` units whose row `r` starts at
  ;; i32 `$starts[r]` (`$rows` rows): the row's end without its line break, where its first unit
  ;; other than a space or tab lies (within `LEVEL_WINDOW`, 1024 units) into i32 `$filled[r]`,
  ;; and its template, interned, into i32 `$template[r]`, counting each template's rows in i32
  ;; `$counts[id]`. Templates are interned through an open-addressed table of `$mask + 1` slots
  ;; (a power of two): i32 `$slotId` (id + 1, 0 free) and i32 `$slotHash`, as text-signals.ts
  ;; interns them, so ids are dense in order of first row. Where `$shift` is not 0, a row is read
  ;; from u8 `$shift[r]` units past its start (a diff's line, past its marker).
  (func (export "templateRows")
    (param $units i32) (param $length i32) (param $starts i32) (param $rows i32)
    (param $first i32) (param $last i32)
    (param $filled i32) (param $template i32) (param $counts i32)
    (param $slotId i32) (param $slotHash i32) (param $mask i32) (param $shift i32)
    (local $r i32) (local $from i32) (local $to i32) (local $window i32) (local $i i32)
    (local $c i32) (local $hash i32) (local $slot i32) (local $id i32)
    (local $lastFrom i32) (local $lastLength i32)
    (local.set $lastLength (i32.const -1))
    (local.set $r (local.get $first))
    (block $done
      (loop $row
        (br_if $done (i32.ge_s (local.get $r) (local.get $last)))
        (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $to
          (if (result i32) (i32.lt_s (i32.add (local.get $r) (i32.const 1)) (local.get $rows))
            (then
              (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
            (else (local.get $length))))
        (block $trimmed
          (loop $trim
            (br_if $trimmed (i32.le_s (local.get $to) (local.get $from)))
            (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $to) (i32.const 1)) (i32.const 1)))))
            (br_if $trimmed
              (i32.and (i32.ne (local.get $c) (i32.const 0x0a)) (i32.ne (local.get $c) (i32.const 0x0d))))
            (local.set $to (i32.sub (local.get $to) (i32.const 1)))
            (br $trim)))
        ;; A diff's row is read past its marker (`$shift[r]`, where a shift is given).
        (if (local.get $shift)
          (then
            (local.set $from
              (i32.add (local.get $from) (i32.load8_u (i32.add (local.get $shift) (local.get $r)))))))
        (local.set $window (i32.add (local.get $from) (i32.const 1024)))
        (if (i32.lt_s (local.get $to) (local.get $window)) (then (local.set $window (local.get $to))))
        (local.set $i (local.get $from))
        (block $filledEnd
          (loop $blank
            (br_if $filledEnd (i32.ge_s (local.get $i) (local.get $window)))
            (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
            (br_if $filledEnd
              (i32.and (i32.ne (local.get $c) (i32.const 0x20)) (i32.ne (local.get $c) (i32.const 0x09))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $blank)))
        (i32.store (i32.add (local.get $filled) (i32.shl (local.get $r) (i32.const 2))) (local.get $i))
        ;; A row that repeats the one before (`CPU burner 3 running`, 1 500 times over) has its
        ;; template.
        (if (call $repeats (local.get $units) (local.get $lastFrom) (local.get $lastLength)
              (local.get $from) (local.get $to))
          (then
            (local.set $id
              (i32.load (i32.sub (i32.add (local.get $template) (i32.shl (local.get $r) (i32.const 2))) (i32.const 4)))))
          (else
        (local.set $hash
          (call $lineTemplate (local.get $units) (local.get $from) (local.get $to) (local.get $i)))
        (local.set $slot
          (i32.and
            (i32.xor (local.get $hash) (i32.shr_u (local.get $hash) (i32.const 15)))
            (local.get $mask)))
        (block $found
          (loop $probe
            (br_if $found
              (i32.eqz (i32.load (i32.add (local.get $slotId) (i32.shl (local.get $slot) (i32.const 2))))))
            (br_if $found
              (i32.eq
                (i32.load (i32.add (local.get $slotHash) (i32.shl (local.get $slot) (i32.const 2))))
                (local.get $hash)))
            (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (local.set $id
          (i32.sub
            (i32.load (i32.add (local.get $slotId) (i32.shl (local.get $slot) (i32.const 2))))
            (i32.const 1)))
        (if (i32.lt_s (local.get $id) (i32.const 0))
          (then
            (local.set $id (global.get $templates))
            (global.set $templates (i32.add (local.get $id) (i32.const 1)))
            (i32.store (i32.add (local.get $slotId) (i32.shl (local.get $slot) (i32.const 2)))
              (i32.add (local.get $id) (i32.const 1)))
            (i32.store (i32.add (local.get $slotHash) (i32.shl (local.get $slot) (i32.const 2)))
              (local.get $hash))))))
        (local.set $lastFrom (local.get $from))
        (local.set $lastLength (i32.sub (local.get $to) (local.get $from)))
        (i32.store (i32.add (local.get $template) (i32.shl (local.get $r) (i32.const 2))) (local.get $id))
        (local.set $c (i32.add (local.get $counts) (i32.shl (local.get $id) (i32.const 2))))
        (i32.store (local.get $c) (i32.add (i32.load (local.get $c)) (i32.const 1)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))

  ;; The level of each row over rows [$first, $last) as far as it can be read here
  ;; (`detectLevel` in readers/line-level.ts), into i32 `$out[r]`: -1 (`NO_LEVEL`) where the row
  ;; states none for sure; a signature where a level word (`ERROR`, `[warn]`, `error:` opening
  ;; the row) or a level key's value (`level=warn`, `"severity":"E"`) states it before anything
  ;; else could, which holds unless an exit or alert word starts in the row (the caller asks its
  ;; `LevelTailCues`); -2 where the JavaScript must read the row. It steps through the row from
  ;; `$filled[r]` (`templateRows` wrote it; past a diff line's marker where `$shift` is given, as
  ;; there) as `detectLevel` does, and asks at whatever else could state a level: a level key's
  ;; value of no known level (`"level":30`, interned in JavaScript), an exit or alert word, a
  ;; protocol word before a response status from 400, a level letter standing alone (or opening
  ;; the row, five units long: `E0312`), a mark opening the row, an exception's name or opener
  ;; opening it. Rows that state no level (prose, markup, most of a build's output) or state it
  ;; plainly are then never read in JavaScript. `$table` holds the vocabulary's level table as
  ;; line-scan.ts lays it out (`levelTableImage`).
  (func (export "levelRows")
    (param $units i32) (param $length i32) (param $starts i32) (param $rows i32)
    (param $first i32) (param $last i32) (param $filled i32) (param $out i32) (param $table i32)
    (param $shift i32)
    (local $r i32) (local $from i32) (local $to i32) (local $end i32) (local $i i32)
    (local $c i32) (local $opening i32) (local $prefixed i32) (local $previous i32)
    (local $lettered i32) (local $start i32) (local $len i32) (local $stop i32)
    (local $stride i32) (local $bucket i32) (local $result i32) (local $name i32) (local $after i32)
    (local $known i32) (local $level i32) (local $form i32) (local $k i32) (local $before i32)
    (local $flags i32) (local $lastFrom i32) (local $lastLength i32)
    (local.set $lastLength (i32.const -1))
    (local.set $stride (i32.load (local.get $table)))
    (local.set $bucket (i32.add (local.get $table) (i32.load offset=8 (local.get $table))))
    (local.set $r (local.get $first))
    (block $done
      (loop $row
        (br_if $done (i32.ge_s (local.get $r) (local.get $last)))
        (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $to
          (if (result i32) (i32.lt_s (i32.add (local.get $r) (i32.const 1)) (local.get $rows))
            (then
              (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
            (else (local.get $length))))
        (block $trimmed
          (loop $trim
            (br_if $trimmed (i32.le_s (local.get $to) (local.get $from)))
            (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $to) (i32.const 1)) (i32.const 1)))))
            (br_if $trimmed
              (i32.and (i32.ne (local.get $c) (i32.const 0x0a)) (i32.ne (local.get $c) (i32.const 0x0d))))
            (local.set $to (i32.sub (local.get $to) (i32.const 1)))
            (br $trim)))
        ;; A diff's row is read past its marker (`$shift[r]`, where a shift is given).
        (if (local.get $shift)
          (then
            (local.set $from
              (i32.add (local.get $from) (i32.load8_u (i32.add (local.get $shift) (local.get $r)))))))
        (local.set $end (i32.add (local.get $from) (i32.const 1024)))
        (if (i32.lt_s (local.get $to) (local.get $end)) (then (local.set $end (local.get $to))))
        (local.set $i (i32.load (i32.add (local.get $filled) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $opening (i32.const 1))
        (local.set $previous (i32.const 0))
        (local.set $lettered (i32.const 0))
        (local.set $result (i32.const -1))
        ;; A row that repeats the one before reads as it did.
        (if (call $repeats (local.get $units) (local.get $lastFrom) (local.get $lastLength)
              (local.get $from) (local.get $to))
          (then
            (local.set $result
              (i32.load (i32.sub (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2))) (i32.const 4))))
            (local.set $i (local.get $end))))
        (local.set $lastFrom (local.get $from))
        (local.set $lastLength (i32.sub (local.get $to) (local.get $from)))
        (local.set $prefixed
          (if (result i32) (i32.lt_s (local.get $i) (local.get $end))
            (then (i32.eq (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 0x5b)))
            (else (i32.const 0))))
        (block $line
          (loop $step
            (br_if $line (i32.ge_s (local.get $i) (local.get $end)))
            (if (i32.eqz (local.get $opening))
              (then
                ;; Past the row's opening: words not in the table, letters that cannot count,
                ;; spacing, punctuation and escapes are stepped over, as `detectLevel`'s inner
                ;; loop steps over them.
                (block $stopped
                  (loop $skip
                    (br_if $stopped (i32.ge_s (local.get $i) (local.get $end)))
                    (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
                    (if (i32.ge_u (i32.load8_u offset=65536 (local.get $c)) (i32.const 2))
                      (then
                        (local.set $start (local.get $i))
                        (block $wordEnd
                          (loop $word
                            (local.set $i (i32.add (local.get $i) (i32.const 1)))
                            (br_if $wordEnd (i32.ge_s (local.get $i) (local.get $end)))
                            (br_if $word (i32.ge_u (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 2)))))
                        (local.set $len (i32.sub (local.get $i) (local.get $start)))
                        (local.set $stop (i32.const 0))
                        (if (i32.lt_s (local.get $len) (local.get $stride))
                          (then
                            (if (i32.ge_s
                                  (i32.load16_s
                                    (i32.add (local.get $bucket)
                                      (i32.shl
                                        (i32.add
                                          (i32.mul
                                            (i32.and (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x7f))
                                            (local.get $stride))
                                          (local.get $len))
                                        (i32.const 1))))
                                  (i32.const 0))
                              (then
                                (local.set $stop
                                  (if (result i32) (i32.eq (local.get $len) (i32.const 1))
                                    (then (i32.const 1))
                                    (else
                                      (i32.ge_s
                                        (call $tableWord (local.get $units) (local.get $start) (local.get $len) (local.get $table))
                                        (i32.const 0)))))))))
                        (if (i32.and (i32.eqz (local.get $stop)) (i32.eq (local.get $len) (i32.const 1)))
                          (then
                            (if (i32.lt_s (local.get $i) (local.get $to))
                              (then
                                (local.set $after (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
                                (local.set $stop
                                  (i32.or
                                    (i32.and (i32.eq (local.get $previous) (i32.const 0x3a)) (i32.eq (local.get $after) (i32.const 0x3a)))
                                    (i32.and (i32.eqz (local.get $lettered)) (i32.or (i32.eq (local.get $after) (i32.const 0x20)) (i32.eq (local.get $after) (i32.const 0x09))))))))))
                        (if (local.get $stop)
                          (then
                            (local.set $i (local.get $start))
                            (br $stopped)))
                        (if (i32.eqz (i32.eq (i32.load8_u offset=65536 (local.get $c)) (i32.const 3))) (then (local.set $lettered (i32.const 1))))
                        (local.set $previous (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 1)))))
                        (br $skip)))
                    (if (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x09)))
                      (then
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (br $skip)))
                    (if (i32.eq (local.get $c) (i32.const 0x1b))
                      (then
                        (local.set $i (call $skipEscape (local.get $units) (local.get $i) (local.get $end)))
                        (br $skip)))
                    (br_if $stopped (i32.or (i32.eq (local.get $c) (i32.const 0x0d)) (i32.eq (local.get $c) (i32.const 0x0a))))
                    (br_if $stopped
                      (i32.and
                        (i32.and (i32.eq (local.get $c) (i32.const 0x3a)) (i32.eq (local.get $previous) (i32.const 0x5d)))
                        (call $blankAt (local.get $units) (local.get $length) (i32.add (local.get $i) (i32.const 1)))))
                    (br_if $stopped
                      (i32.and
                        (i32.and (i32.eq (local.get $c) (i32.const 0x5d)) (local.get $prefixed))
                        (call $blankAt (local.get $units) (local.get $length) (i32.add (local.get $i) (i32.const 1)))))
                    (local.set $previous (local.get $c))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $skip)))
                (br_if $line (i32.ge_s (local.get $i) (local.get $end)))))
            (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
            (if (i32.eq (local.get $c) (i32.const 0x1b))
              (then
                (local.set $i (call $skipEscape (local.get $units) (local.get $i) (local.get $end)))
                (br $step)))
            (if (i32.eqz (i32.ge_u (i32.load8_u offset=65536 (local.get $c)) (i32.const 2)))
              (then
                (if (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x09)))
                  (then
                    (block $blanksEnd
                      (loop $blanks
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (br_if $blanksEnd (i32.ge_s (local.get $i) (local.get $end)))
                        (local.set $after (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
                        (br_if $blanks (i32.or (i32.eq (local.get $after) (i32.const 0x20)) (i32.eq (local.get $after) (i32.const 0x09))))))
                    (br $step)))
                (br_if $line (i32.or (i32.eq (local.get $c) (i32.const 0x0d)) (i32.eq (local.get $c) (i32.const 0x0a))))
                (if (i32.and (local.get $opening) (i32.ge_u (local.get $c) (i32.const 0x80)))
                  (then
                    (if (call $isMark (local.get $c) (local.get $table))
                      (then
                        (local.set $result (i32.const -2))
                        (br $line)))))
                ;; Punctuation before the first word (a diff marker, a bullet) still opens the row.
                (if (i32.and
                      (i32.and (i32.ne (local.get $c) (i32.const 0x2b)) (i32.ne (local.get $c) (i32.const 0x2d)))
                      (i32.and (i32.ne (local.get $c) (i32.const 0x2a)) (i32.ne (local.get $c) (i32.const 0x3e))))
                  (then (local.set $opening (i32.const 0))))
                (if (i32.and
                      (i32.and (i32.eq (local.get $c) (i32.const 0x3a)) (i32.eq (local.get $previous) (i32.const 0x5d)))
                      (call $blankAt (local.get $units) (local.get $length) (i32.add (local.get $i) (i32.const 1))))
                  (then (local.set $opening (i32.const 1))))
                (if (i32.and
                      (i32.and (i32.eq (local.get $c) (i32.const 0x5d)) (local.get $prefixed))
                      (call $blankAt (local.get $units) (local.get $length) (i32.add (local.get $i) (i32.const 1))))
                  (then
                    (local.set $opening (i32.const 1))
                    (local.set $prefixed (i32.const 0))))
                (local.set $previous (local.get $c))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $step)))
            ;; A word.
            (local.set $start (local.get $i))
            (block $wordEnd
              (loop $word
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br_if $wordEnd (i32.ge_s (local.get $i) (local.get $end)))
                (br_if $word (i32.ge_u (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 2)))))
            (local.set $len (i32.sub (local.get $i) (local.get $start)))
            (if (i32.eqz (i32.eq (i32.load8_u offset=65536 (local.get $c)) (i32.const 3))) (then (local.set $lettered (i32.const 1))))
            (local.set $known
              (call $tableWord (local.get $units) (local.get $start) (local.get $len) (local.get $table)))
            (if (i32.ge_s (local.get $known) (i32.const 0))
              (then
                ;; A level key states the level its value names (`level=warn`, `"severity":"E"`);
                ;; a protocol word is asked about where a response status follows it (`HTTP/1.1"
                ;; 503`); a value of no known level, an exit or alert word always.
                (local.set $flags
                  (i32.load8_u
                    (i32.add
                      (i32.add (local.get $table) (i32.load offset=28 (local.get $table)))
                      (local.get $known))))
                (if (i32.eq (local.get $flags) (i32.const 8))
                  (then
                    (if (call $statesStatus (local.get $units) (local.get $length) (local.get $i) (local.get $end))
                      (then
                        (local.set $result (i32.const -2))
                        (br $line))))
                  (else
                    (if (i32.eq (local.get $flags) (i32.const 1))
                      (then
                        (local.set $result
                          (call $fieldLevel (local.get $units) (local.get $length) (local.get $i) (local.get $end) (local.get $table)))
                        (br $line)))
                    (if (local.get $flags)
                      (then
                        (local.set $result (i32.const -2))
                        (br $line)))))
                (local.set $level
                  (i32.load8_s
                    (i32.add
                      (i32.add (local.get $table) (i32.load offset=24 (local.get $table)))
                      (local.get $known))))
                (if (i32.ge_s (local.get $level) (i32.const 0))
                  (then
                    ;; A level word in upper case, set off as a field, or opening the row.
                    (local.set $form (i32.const 1))
                    (local.set $k (local.get $start))
                    (block $lower
                      (loop $upper
                        (br_if $lower (i32.ge_s (local.get $k) (local.get $i)))
                        (if (i32.gt_u (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $k) (i32.const 1)))) (i32.const 0x41)) (i32.const 0x19))
                          (then
                            (local.set $form (i32.const 0))
                            (br $lower)))
                        (local.set $k (i32.add (local.get $k) (i32.const 1)))
                        (br $upper)))
                    (if (i32.eqz (local.get $form))
                      (then
                        (local.set $before
                          (if (result i32) (i32.gt_s (local.get $start) (local.get $from))
                            (then (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $start) (i32.const 1)) (i32.const 1)))))
                            (else (i32.const 0))))
                        (local.set $after
                          (if (result i32) (i32.lt_s (local.get $i) (local.get $to))
                            (then (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
                            (else (i32.const 0))))
                        (if (i32.and
                              (i32.or
                                (i32.or (i32.eq (local.get $before) (i32.const 0x5b)) (i32.eq (local.get $before) (i32.const 0x3c)))
                                (i32.or (i32.eq (local.get $before) (i32.const 0x28)) (i32.eq (local.get $before) (i32.const 0x7c))))
                              (i32.or
                                (i32.or (i32.eq (local.get $after) (i32.const 0x5d)) (i32.eq (local.get $after) (i32.const 0x3e)))
                                (i32.or (i32.eq (local.get $after) (i32.const 0x29)) (i32.eq (local.get $after) (i32.const 0x7c)))))
                          (then (local.set $form (i32.const 2)))
                          (else
                            (if (i32.and
                                  (local.get $opening)
                                  (i32.or
                                    (i32.or (i32.eq (local.get $after) (i32.const 0x3a)) (i32.eq (local.get $after) (i32.const 0x5b)))
                                    (i32.eq (local.get $after) (i32.const 0x21))))
                              (then (local.set $form (i32.const 3))))))))
                    (if (local.get $form)
                      (then
                        (local.set $result
                          (i32.add (i32.shl (local.get $form) (i32.const 8)) (local.get $level)))
                        (br $line)))))))
            (if (i32.and (i32.eqz (local.get $opening)) (i32.ne (local.get $len) (i32.const 1)))
              (then
                (local.set $previous (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 1)))))
                (br $step)))
            ;; A level letter: asked of the JavaScript.
            (if (i32.and
                  (i32.or
                    (i32.eq (local.get $len) (i32.const 1))
                    (i32.and (local.get $opening) (i32.eq (local.get $len) (i32.const 5))))
                  (i32.ne (i32.load8_u offset=48 (i32.add (local.get $table) (local.get $c))) (i32.const 0)))
              (then
                (local.set $result (i32.const -2))
                (br $line)))
            (if (local.get $opening)
              (then
                ;; A dotted name opening the row: an exception's where it closes the row or a
                ;; `:` follows, or where an exception opener may start it.
                (local.set $name (local.get $i))
                (block $nameEnd
                  (loop $dotted
                    (br_if $nameEnd (i32.ge_s (local.get $name) (local.get $end)))
                    (local.set $after (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $name) (i32.const 1)))))
                    (br_if $nameEnd
                      (i32.eqz
                        (i32.or (i32.ge_u (i32.load8_u offset=65536 (local.get $after)) (i32.const 2))
                          (i32.or (i32.eq (local.get $after) (i32.const 0x2e)) (i32.eq (local.get $after) (i32.const 0x24))))))
                    (local.set $name (i32.add (local.get $name) (i32.const 1)))
                    (br $dotted)))
                (local.set $after
                  (if (result i32) (i32.lt_s (local.get $name) (local.get $to))
                    (then (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $name) (i32.const 1)))))
                    (else (i32.const 0))))
                (if (i32.or
                      (i32.or (i32.eq (local.get $after) (i32.const 0x3a)) (i32.eqz (local.get $after)))
                      (i32.or (i32.eq (local.get $after) (i32.const 0x0d)) (i32.eq (local.get $after) (i32.const 0x0a))))
                  (then
                    (if (call $endsWithAny (local.get $units) (local.get $start) (local.get $name)
                          (i32.add (local.get $table) (i32.load offset=32 (local.get $table))) (local.get $table))
                      (then
                        (local.set $result (i32.const -2))
                        (br $line)))))
                (if (i32.load8_u offset=176 (i32.add (local.get $table) (local.get $c)))
                  (then
                    (if (call $startsWithAny (local.get $units) (local.get $length) (local.get $start)
                          (i32.add (local.get $table) (i32.load offset=36 (local.get $table))) (local.get $table))
                      (then
                        (local.set $result (i32.const -2))
                        (br $line)))))
                (if (i32.gt_s (local.get $name) (local.get $i)) (then (local.set $i (local.get $name))))))
            (local.set $opening (i32.const 0))
            (local.set $previous (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 1)))))
            (br $step)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2))) (local.get $result))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))

  ;; The level the value of a level key ending at `$at` names (`fieldValue` and `valueLevel` in
  ;; line-level.ts: past up to three quotes or blanks, `:` or `=`, up to three more, a word of
  ;; at most 16 units): a level letter's or a level word's, else -2 (a value of no known level,
  ;; or none: the JavaScript reads the row).
  (func $fieldLevel (param $units i32) (param $length i32) (param $at i32) (param $end i32) (param $table i32) (result i32)
    (local $i i32) (local $k i32) (local $c i32) (local $from i32) (local $known i32) (local $letter i32)
    (local.set $i (local.get $at))
    (block $before
      (loop $skip
        (br_if $before (i32.or (i32.ge_s (local.get $k) (i32.const 3)) (i32.ge_s (local.get $i) (local.get $end))))
        (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
        (br_if $before
          (i32.and
            (i32.and (i32.ne (local.get $c) (i32.const 0x22)) (i32.ne (local.get $c) (i32.const 0x27)))
            (i32.and (i32.ne (local.get $c) (i32.const 0x20)) (i32.ne (local.get $c) (i32.const 0x09)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $skip)))
    (if (i32.ge_s (local.get $i) (local.get $length)) (then (return (i32.const -2))))
    (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
    (if (i32.and (i32.ne (local.get $c) (i32.const 0x3a)) (i32.ne (local.get $c) (i32.const 0x3d)))
      (then (return (i32.const -2))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (local.set $k (i32.const 0))
    (block $after
      (loop $skip
        (br_if $after (i32.or (i32.ge_s (local.get $k) (i32.const 3)) (i32.ge_s (local.get $i) (local.get $end))))
        (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
        (br_if $after
          (i32.and
            (i32.and (i32.ne (local.get $c) (i32.const 0x22)) (i32.ne (local.get $c) (i32.const 0x27)))
            (i32.and (i32.ne (local.get $c) (i32.const 0x20)) (i32.ne (local.get $c) (i32.const 0x09)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $skip)))
    (local.set $from (local.get $i))
    (block $valueEnd
      (loop $value
        (br_if $valueEnd (i32.ge_s (local.get $i) (local.get $end)))
        (br_if $valueEnd (i32.gt_s (i32.sub (local.get $i) (local.get $from)) (i32.const 16)))
        (br_if $valueEnd (i32.lt_u (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 2)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $value)))
    (if (i32.gt_s (i32.sub (local.get $i) (local.get $from)) (i32.const 16)) (then (return (i32.const -2))))
    (if (i32.eq (local.get $i) (local.get $from)) (then (return (i32.const -2))))
    (if (i32.eq (i32.sub (local.get $i) (local.get $from)) (i32.const 1))
      (then
        (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $from) (i32.const 1)))))
        (if (i32.le_u (i32.sub (local.get $c) (i32.const 0x61)) (i32.const 0x19))
          (then (local.set $c (i32.sub (local.get $c) (i32.const 0x20)))))
        (local.set $letter (i32.load8_u offset=48 (i32.add (local.get $table) (local.get $c))))
        (if (local.get $letter) (then (return (i32.sub (local.get $letter) (i32.const 1)))))))
    (local.set $known
      (call $tableWord (local.get $units) (local.get $from) (i32.sub (local.get $i) (local.get $from)) (local.get $table)))
    (if (i32.ge_s (local.get $known) (i32.const 0))
      (then
        (local.set $letter
          (i32.load8_s
            (i32.add
              (i32.add (local.get $table) (i32.load offset=24 (local.get $table)))
              (local.get $known))))
        (if (i32.ge_s (local.get $letter) (i32.const 0)) (then (return (local.get $letter))))))
    (i32.const -2))

  ;; Whether one of the strings listed at `$list` (i32 count, then per string i32 offset from
  ;; `$table` and i32 length; its units u16) ends units [$from, $to) and is shorter
  ;; (`endsWithWord` in line-level.ts: an exception's name, `ValueError`).
  (func $endsWithAny (param $units i32) (param $from i32) (param $to i32) (param $list i32) (param $table i32) (result i32)
    (local $n i32) (local $at i32) (local $len i32) (local $k i32) (local $base i32)
    (local.set $n (i32.load (local.get $list)))
    (block $none
      (loop $next
        (br_if $none (i32.le_s (local.get $n) (i32.const 0)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (local.set $at (i32.add (local.get $list) (i32.add (i32.const 4) (i32.shl (local.get $n) (i32.const 3)))))
        (local.set $len (i32.load offset=4 (local.get $at)))
        (local.set $at (i32.add (local.get $table) (i32.load (local.get $at))))
        (if (i32.gt_s (i32.sub (local.get $to) (local.get $from)) (local.get $len))
          (then
            (local.set $base (i32.sub (local.get $to) (local.get $len)))
            (local.set $k (i32.const 0))
            (block $differs
              (loop $unit
                (br_if $differs (i32.ge_s (local.get $k) (local.get $len)))
                (br_if $differs
                  (i32.ne (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $base) (local.get $k)) (i32.const 1))))
                    (i32.load16_u (i32.add (local.get $at) (i32.shl (local.get $k) (i32.const 1))))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $unit)))
            (if (i32.eq (local.get $k) (local.get $len)) (then (return (i32.const 1))))))
        (br $next)))
    (i32.const 0))

  ;; Whether one of the strings listed at `$list` (as for `$endsWithAny`) starts at `$from` in a
  ;; text of `$length` units (`startsWith`: an exception opener, `Traceback (most recent call`).
  (func $startsWithAny (param $units i32) (param $length i32) (param $from i32) (param $list i32) (param $table i32) (result i32)
    (local $n i32) (local $at i32) (local $len i32) (local $k i32)
    (local.set $n (i32.load (local.get $list)))
    (block $none
      (loop $next
        (br_if $none (i32.le_s (local.get $n) (i32.const 0)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (local.set $at (i32.add (local.get $list) (i32.add (i32.const 4) (i32.shl (local.get $n) (i32.const 3)))))
        (local.set $len (i32.load offset=4 (local.get $at)))
        (local.set $at (i32.add (local.get $table) (i32.load (local.get $at))))
        (if (i32.le_s (i32.add (local.get $from) (local.get $len)) (local.get $length))
          (then
            (local.set $k (i32.const 0))
            (block $differs
              (loop $unit
                (br_if $differs (i32.ge_s (local.get $k) (local.get $len)))
                (br_if $differs
                  (i32.ne (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $from) (local.get $k)) (i32.const 1))))
                    (i32.load16_u (i32.add (local.get $at) (i32.shl (local.get $k) (i32.const 1))))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $unit)))
            (if (i32.eq (local.get $k) (local.get $len)) (then (return (i32.const 1))))))
        (br $next)))
    (i32.const 0))

  ;; Whether a response status from 400 follows the protocol word ending at `$at`
  ;; (`responseStatusLevel` in line-level.ts: its version, a closing quote, spacing, then three
  ;; digits standing alone), within `$end`, in a text of `$length` units.
  (func $statesStatus (param $units i32) (param $length i32) (param $at i32) (param $end i32) (result i32)
    (local $i i32) (local $c i32) (local $quote i32) (local $hundreds i32)
    (local.set $i (local.get $at))
    (if (i32.ge_s (local.get $i) (local.get $length)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 0x2f)) (then (return (i32.const 0))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (block $versionEnd
      (loop $version
        (br_if $versionEnd (i32.ge_s (local.get $i) (local.get $end)))
        (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
        (br_if $versionEnd
          (i32.and
            (i32.gt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 9))
            (i32.ne (local.get $c) (i32.const 0x2e))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $version)))
    (if (i32.ge_s (local.get $i) (local.get $length)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 0x22)) (then (return (i32.const 0))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (local.set $quote (local.get $i))
    (block $spaced
      (loop $blanks
        (br_if $spaced (i32.ge_s (local.get $i) (local.get $end)))
        (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
        (br_if $spaced (i32.and (i32.ne (local.get $c) (i32.const 0x20)) (i32.ne (local.get $c) (i32.const 0x09))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $blanks)))
    (if (i32.or (i32.eq (local.get $i) (local.get $quote)) (i32.gt_s (i32.add (local.get $i) (i32.const 3)) (local.get $end)))
      (then (return (i32.const 0))))
    (if (i32.or
          (i32.gt_u (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 0x30)) (i32.const 9))
          (i32.or
            (i32.gt_u (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 1)))) (i32.const 0x30)) (i32.const 9))
            (i32.gt_u (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 2)) (i32.const 1)))) (i32.const 0x30)) (i32.const 9))))
      (then (return (i32.const 0))))
    (if (i32.lt_s (i32.add (local.get $i) (i32.const 3)) (local.get $end))
      (then
        (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 3)) (i32.const 1)))))
        (if (i32.and
              (i32.and (i32.ne (local.get $c) (i32.const 0x20)) (i32.ne (local.get $c) (i32.const 0x09)))
              (i32.ne (local.get $c) (i32.const 0x0d)))
          (then (return (i32.const 0))))))
    (local.set $hundreds (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 0x30)))
    (i32.or (i32.eq (local.get $hundreds) (i32.const 4)) (i32.eq (local.get $hundreds) (i32.const 5))))

  ;; Whether units [$from, $to) repeat the `$lastLength` units from `$lastFrom` (-1: no row before
  ;; in this call).
  (func $repeats (param $units i32) (param $lastFrom i32) (param $lastLength i32) (param $from i32) (param $to i32) (result i32)
    (local $k i32)
    (if (i32.ne (i32.sub (local.get $to) (local.get $from)) (local.get $lastLength)) (then (return (i32.const 0))))
    (block $differs
      (loop $unit
        (br_if $differs (i32.ge_s (local.get $k) (local.get $lastLength)))
        (br_if $differs
          (i32.ne
            (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $lastFrom) (local.get $k)) (i32.const 1))))
            (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $from) (local.get $k)) (i32.const 1))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $unit)))
    (i32.eq (local.get $k) (local.get $lastLength)))

  ;; Whether the unit at `$at` is a space or a tab (none past the text's `$length` units).
  (func $blankAt (param $units i32) (param $length i32) (param $at i32) (result i32)
    (local $c i32)
    (if (i32.ge_s (local.get $at) (local.get $length)) (then (return (i32.const 0))))
    (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $at) (i32.const 1)))))
    (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x09))))

  ;; Whether `$code` is one of the table's marks.
  (func $isMark (param $code i32) (param $table i32) (result i32)
    (local $at i32) (local $stop i32)
    (local.set $at (i32.add (local.get $table) (i32.load offset=20 (local.get $table))))
    (local.set $stop
      (i32.add (local.get $at) (i32.shl (i32.load offset=4 (local.get $table)) (i32.const 1))))
    (block $none
      (loop $next
        (br_if $none (i32.ge_u (local.get $at) (local.get $stop)))
        (if (i32.eq (i32.load16_u (local.get $at)) (local.get $code)) (then (return (i32.const 1))))
        (local.set $at (i32.add (local.get $at) (i32.const 2)))
        (br $next)))
    (i32.const 0))

  ;; `tableWord` (line-level.ts): the index of the table's word at units [$start, $start + $len)
  ;; (compared with `| 0x20` on both sides), or -1.
  (func $tableWord (param $units i32) (param $start i32) (param $len i32) (param $table i32) (result i32)
    (local $stride i32) (local $lead i32) (local $index i32) (local $word i32) (local $k i32)
    (local.set $stride (i32.load (local.get $table)))
    (if (i32.ge_s (local.get $len) (local.get $stride)) (then (return (i32.const -1))))
    (local.set $lead (i32.or (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $start) (i32.const 1)))) (i32.const 0x20)))
    (local.set $index
      (i32.load16_s
        (i32.add
          (i32.add (local.get $table) (i32.load offset=8 (local.get $table)))
          (i32.shl
            (i32.add (i32.mul (i32.and (local.get $lead) (i32.const 0x7f)) (local.get $stride)) (local.get $len))
            (i32.const 1)))))
    (block $none
      (loop $next
        (br_if $none (i32.lt_s (local.get $index) (i32.const 0)))
        (local.set $word
          (i32.add (local.get $table)
            (i32.load
              (i32.add
                (i32.add (local.get $table) (i32.load offset=16 (local.get $table)))
                (i32.shl (local.get $index) (i32.const 2))))))
        (local.set $k (i32.const 1))
        (block $differs
          (loop $unit
            (br_if $differs (i32.ge_s (local.get $k) (local.get $len)))
            (br_if $differs
              (i32.ne
                (i32.or (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $start) (local.get $k)) (i32.const 1)))) (i32.const 0x20))
                (i32.load16_u (i32.add (local.get $word) (i32.shl (local.get $k) (i32.const 1))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $unit)))
        (if (i32.and
              (i32.eq (local.get $k) (local.get $len))
              (i32.eq (local.get $lead) (i32.load16_u (local.get $word))))
          (then (return (local.get $index))))
        (local.set $index
          (i32.load16_s
            (i32.add
              (i32.add (local.get $table) (i32.load offset=12 (local.get $table)))
              (i32.shl (local.get $index) (i32.const 1)))))
        (br $next)))
    (i32.const -1))

  ;; The per-row loop of `rareLineCodes` (rare-line-codes.ts) over rows [$first, $last): for each
  ;; row whose template `$template[r]` has a dense number `$dense[id]` ≥ 0, its codes (the whole
  ;; integers of up to six digits among its first 200 units, up to eight) are interned in its
  ;; template's slots: per slot (dense × 8 + ordinal) its values i32 `$slotValue` and counts i32
  ;; `$slotCount` (nine a slot) and its size i8 `$slotSize` (-1 once past nine), and the row's
  ;; value indices + 1, four bits a slot, into i32 `$rowCodes[r]`. Returns the work done
  ;; (units read + 8 a row read), as the JavaScript counts it.
  (func (export "codeRows")
    (param $units i32) (param $length i32) (param $starts i32) (param $rows i32)
    (param $first i32) (param $last i32)
    (param $template i32) (param $dense i32)
    (param $slotValue i32) (param $slotCount i32) (param $slotSize i32) (param $rowCodes i32)
    (result i32)
    (local $t i32)
    (local $r i32) (local $d i32) (local $from i32) (local $to i32) (local $slot i32)
    (local $packed i32) (local $i i32) (local $k i32) (local $start i32) (local $value i32)
    (local $before i32) (local $after i32) (local $at i32) (local $size i32) (local $j i32)
    (local $base i32) (local $work i32) (local $c i32)
    (local.set $r (local.get $first))
    (block $done
      (loop $row
        (br_if $done (i32.ge_s (local.get $r) (local.get $last)))
        (local.set $d
          (i32.load
            (i32.add (local.get $dense)
              (i32.shl
                (i32.load (i32.add (local.get $template) (i32.shl (local.get $r) (i32.const 2))))
                (i32.const 2)))))
        (block $skip
          (br_if $skip (i32.lt_s (local.get $d) (i32.const 0)))
          (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
          (local.set $to
            (if (result i32) (i32.lt_s (i32.add (local.get $r) (i32.const 1)) (local.get $rows))
              (then
                (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
              (else (local.get $length))))
          (if (i32.gt_s (local.get $to) (i32.add (local.get $from) (i32.const 200)))
            (then (local.set $to (i32.add (local.get $from) (i32.const 200)))))
          (local.set $slot (i32.const 0))
          (local.set $packed (i32.const 0))
          (local.set $i (local.get $from))
          (block $read
            (loop $next
              (br_if $read (i32.ge_s (local.get $i) (local.get $to)))
              (br_if $read (i32.ge_s (local.get $slot) (i32.const 8)))
              (local.set $k (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))))
              (if (i32.ne (local.get $k) (i32.const 3))
                (then
                  ;; A word is stepped over whole: a digit inside it is no code.
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (if (i32.eq (local.get $k) (i32.const 2))
                    (then
                    ;; Past the word's letters, `_` and digits.
                    (block $wordDone
                      (loop $wordNext
                        (br_if $wordDone (i32.ge_s (local.get $i) (local.get $to)))
                        (br_if $wordDone
                          (i32.lt_u (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 2)))
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (br $wordNext)))))
                  (br $next)))
              (local.set $start (local.get $i))
              (local.set $value (i32.const 0))
              (block $digits
                (loop $digit
                  (br_if $digits (i32.ge_s (local.get $i) (local.get $to)))
                  (local.set $c (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))
                  (br_if $digits (i32.gt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 9)))
                  (local.set $value
                    (i32.add (i32.mul (local.get $value) (i32.const 10)) (i32.sub (local.get $c) (i32.const 0x30))))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br $digit)))
              (local.set $before
                (if (result i32) (i32.gt_s (local.get $start) (local.get $from))
                  (then (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $start) (i32.const 1)) (i32.const 1))))))
                  (else (i32.const 0))))
              (local.set $after
                (if (result i32) (i32.lt_s (local.get $i) (local.get $to))
                  (then (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))))
                  (else (i32.const 0))))
              ;; Past the word it ends, if it ends inside one (`3648ms`).
              (if (i32.ge_u (local.get $after) (i32.const 2))
                (then
                  (block $tailDone
                      (loop $tailNext
                        (br_if $tailDone (i32.ge_s (local.get $i) (local.get $to)))
                        (br_if $tailDone
                          (i32.lt_u (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 2)))
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (br $tailNext)))
                  (br $next)))
              ;; Not whole (1.5, 10.0.3, 13:06:56, 2024-05-02, a word's tail) or too long.
              (br_if $next (i32.ge_u (local.get $before) (i32.const 2)))
              (br_if $next
                (i32.and (i32.eq (local.get $before) (i32.const 1))
                  (i32.and
                    (i32.ge_s (i32.sub (local.get $start) (i32.const 2)) (local.get $from))
                    (i32.eq
                      (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $start) (i32.const 2)) (i32.const 1)))))
                      (i32.const 3)))))
              (br_if $next
                (i32.and (i32.eq (local.get $after) (i32.const 1))
                  (i32.and
                    (i32.lt_s (i32.add (local.get $i) (i32.const 1)) (local.get $to))
                    (i32.eq
                      (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 1)))))
                      (i32.const 3)))))
              (br_if $next (i32.gt_s (i32.sub (local.get $i) (local.get $start)) (i32.const 6)))
              (local.set $at (i32.add (i32.shl (local.get $d) (i32.const 3)) (local.get $slot)))
              (local.set $size (i32.load8_s (i32.add (local.get $slotSize) (local.get $at))))
              (if (i32.ge_s (local.get $size) (i32.const 0))
                (then
                  (local.set $j (i32.const 0))
                  (local.set $base (i32.mul (local.get $at) (i32.const 9)))
                  (block $seen
                    (loop $look
                      (br_if $seen (i32.ge_s (local.get $j) (local.get $size)))
                      (br_if $seen
                        (i32.eq
                          (i32.load
                            (i32.add (local.get $slotValue)
                              (i32.shl (i32.add (local.get $base) (local.get $j)) (i32.const 2))))
                          (local.get $value)))
                      (local.set $j (i32.add (local.get $j) (i32.const 1)))
                      (br $look)))
                  (if (i32.eq (local.get $j) (local.get $size))
                    (then
                      (if (i32.eq (local.get $size) (i32.const 9))
                        (then (i32.store8 (i32.add (local.get $slotSize) (local.get $at)) (i32.const -1)))
                        (else
                          (i32.store
                            (i32.add (local.get $slotValue)
                              (i32.shl (i32.add (local.get $base) (local.get $j)) (i32.const 2)))
                            (local.get $value))
                          (i32.store8 (i32.add (local.get $slotSize) (local.get $at))
                            (i32.add (local.get $size) (i32.const 1)))))))
                  (if (i32.lt_s (local.get $j) (i32.const 9))
                    (then
                      (local.set $c
                        (i32.add (local.get $slotCount)
                          (i32.shl (i32.add (local.get $base) (local.get $j)) (i32.const 2))))
                      (i32.store (local.get $c) (i32.add (i32.load (local.get $c)) (i32.const 1)))
                      (local.set $packed
                        (i32.or (local.get $packed)
                          (i32.shl (i32.add (local.get $j) (i32.const 1))
                            (i32.shl (local.get $slot) (i32.const 2)))))))))
              (local.set $slot (i32.add (local.get $slot) (i32.const 1)))
              (br $next)))
          (i32.store (i32.add (local.get $rowCodes) (i32.shl (local.get $r) (i32.const 2))) (local.get $packed))
          (local.set $work
            (i32.add (local.get $work)
              (i32.add (i32.sub (local.get $to) (local.get $from)) (i32.const 8)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))
    (local.get $work))

  ;; Work `measureRows` did in its last call (units read + 8 a row), as the JavaScript counts it.
  (global $measureWork (export "measureWork") (mut i32) (i32.const 0))

  ;; Whether units [$from, $to) hold an ASCII digit (`holdsDigit` in line-measures.ts).
  (func $holdsDigit (param $units i32) (param $from i32) (param $to i32) (result i32)
    (block $none
      (loop $next
        (br_if $none (i32.ge_s (local.get $from) (local.get $to)))
        (if (i32.eq (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $from) (i32.const 1))))) (i32.const 3)) (then (return (i32.const 1))))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $next)))
    (i32.const 0))

  ;; `$hash` (FNV-1a) carried over units [$from, $to), and a separator (`hashUnits`).
  (func $hashUnits (param $units i32) (param $from i32) (param $to i32) (param $hash i32) (result i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $from) (local.get $to)))
        (local.set $hash
          (i32.mul (i32.xor (local.get $hash) (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $from) (i32.const 1))))) (i32.const 0x01000193)))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $next)))
    (i32.mul (i32.xor (local.get $hash) (i32.const 0x20)) (i32.const 0x01000193)))

  ;; The per-row loop of `lineMeasureOutliers` (line-measures.ts) over rows [$first, $last): each
  ;; number a word names, as its measure's key (before interning), its value and its row, into
  ;; i32 `$outKey`, f64 `$outValue` and i32 `$outRow` (eight a row at most), in text order.
  ;; Returns how many; the work is left in `$measureWork`.
  (func (export "measureRows")
    (param $units i32) (param $length i32) (param $starts i32) (param $rows i32)
    (param $first i32) (param $last i32)
    (param $outKey i32) (param $outValue i32) (param $outRow i32)
    (result i32)
    (local $r i32) (local $from i32) (local $end i32) (local $to i32) (local $i i32)
    (local $kind i32) (local $start i32) (local $digits i32) (local $before i32)
    (local $beforeKind i32) (local $measured i32) (local $unit i32) (local $unitStart i32)
    (local $scopeFrom i32) (local $scopeTo i32) (local $wordFrom i32) (local $wordTo i32)
    (local $ordinal i32) (local $scopeHash i32) (local $wordHash i32) (local $read i32)
    (local $key i32) (local $count i32) (local $work i32)
    (local $value f64) (local $scale f64)
    (local.set $r (local.get $first))
    (block $done
      (loop $row
        (br_if $done (i32.ge_s (local.get $r) (local.get $last)))
        (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $end
          (if (result i32) (i32.lt_s (i32.add (local.get $r) (i32.const 1)) (local.get $rows))
            (then (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
            (else (local.get $length))))
        (local.set $to (i32.add (local.get $from) (i32.const 200)))
        (if (i32.lt_s (local.get $end) (local.get $to)) (then (local.set $to (local.get $end))))
        (local.set $scopeFrom (i32.const -1))
        (local.set $scopeTo (i32.const -1))
        (local.set $wordFrom (i32.const -1))
        (local.set $wordTo (i32.const -1))
        (local.set $ordinal (i32.const 0))
        (local.set $scopeHash (i32.const 0))
        (local.set $wordHash (i32.const 0))
        (local.set $read (i32.const 0))
        (local.set $i (local.get $from))
        (block $rowDone
          (loop $next
            (br_if $rowDone (i32.ge_s (local.get $i) (local.get $to)))
            (br_if $rowDone (i32.ge_s (local.get $read) (i32.const 8)))
            (local.set $kind (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))))
            (if (i32.eq (local.get $kind) (i32.const 2))
              (then
                ;; A word: the last one read names the numbers after it; the first without a
                ;; digit opens the line's scope.
                (local.set $start (local.get $i))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (block $wordEnd
                  (loop $word
                    (br_if $wordEnd (i32.ge_s (local.get $i) (local.get $to)))
                    (br_if $wordEnd (i32.lt_u (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 2)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $word)))
                (local.set $wordFrom (local.get $start))
                (local.set $wordTo (local.get $i))
                (local.set $ordinal (i32.const 0))
                (local.set $wordHash (i32.const 0))
                (if (i32.lt_s (local.get $scopeFrom) (i32.const 0))
                  (then
                    (if (i32.eqz (call $holdsDigit (local.get $units) (local.get $start) (local.get $i)))
                      (then
                        (local.set $scopeFrom (local.get $start))
                        (local.set $scopeTo (local.get $i))))))
                (br $next)))
            (if (i32.ne (local.get $kind) (i32.const 3))
              (then
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $next)))
            (local.set $start (local.get $i))
            (local.set $value (f64.const 0))
            (block $intEnd
              (loop $int
                (br_if $intEnd (i32.ge_s (local.get $i) (local.get $to)))
                (br_if $intEnd (i32.ne (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 3)))
                (local.set $value
                  (f64.sub
                    (f64.add (f64.mul (local.get $value) (f64.const 10)) (f64.convert_i32_u (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))))
                    (f64.const 48)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $int)))
            (local.set $digits (i32.sub (local.get $i) (local.get $start)))
            ;; A fraction: one `.` between digits.
            (if (i32.lt_s (i32.add (local.get $i) (i32.const 1)) (local.get $to))
              (then
                (if (i32.and
                      (i32.eq (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 0x2e))
                      (i32.eq (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 1))))) (i32.const 3)))
                  (then
                    (local.set $scale (f64.const 1))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (block $fractionEnd
                      (loop $fraction
                        (br_if $fractionEnd (i32.ge_s (local.get $i) (local.get $to)))
                        (br_if $fractionEnd (i32.ne (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 3)))
                        (local.set $scale (f64.div (local.get $scale) (f64.const 10)))
                        (local.set $value
                          (f64.add (local.get $value)
                            (f64.mul
                              (f64.convert_i32_s (i32.sub (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 0x30)))
                              (local.get $scale))))
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                        (br $fraction)))))))
            (local.set $before
              (if (result i32) (i32.gt_s (local.get $start) (local.get $from))
                (then (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $start) (i32.const 1)) (i32.const 1)))))
                (else (i32.const 0x20))))
            (local.set $beforeKind (i32.load8_u offset=65536 (local.get $before)))
            (local.set $measured
              (i32.and
                (i32.and
                  (i32.and
                    (i32.lt_u (local.get $beforeKind) (i32.const 2))
                    (i32.ne (local.get $before) (i32.const 0x2d)))
                  (i32.eqz
                    (i32.and (i32.eq (local.get $beforeKind) (i32.const 1))
                      (i32.and (i32.ge_s (i32.sub (local.get $start) (i32.const 2)) (local.get $from))
                        (i32.eq (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.sub (local.get $start) (i32.const 2)) (i32.const 1))))) (i32.const 3))))))
                (i32.and
                  (i32.and
                    (i32.eqz
                      (i32.and (i32.lt_s (i32.add (local.get $i) (i32.const 1)) (local.get $to))
                        (i32.and (i32.eq (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 1))
                          (i32.eq (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 1))))) (i32.const 3)))))
                    (i32.le_s (local.get $digits) (i32.const 15)))
                  ;; Cut by the window, its last digits may be unread.
                  (i32.or (i32.lt_s (local.get $i) (local.get $to)) (i32.eq (local.get $to) (local.get $end))))))
            ;; A unit joined to it (`ms`); a run past four letters or into digits is an id's.
            (local.set $unit (i32.const 0x811c9dc5))
            (local.set $unitStart (local.get $i))
            (block $unitEnd
              (loop $unitNext
                (br_if $unitEnd (i32.ge_s (local.get $i) (local.get $to)))
                (br_if $unitEnd (i32.ne (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 2)))
                (local.set $unit (i32.mul (i32.xor (local.get $unit) (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 0x01000193)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $unitNext)))
            (if (i32.gt_s (i32.sub (local.get $i) (local.get $unitStart)) (i32.const 4))
              (then (local.set $measured (i32.const 0))))
            (if (i32.lt_s (local.get $i) (local.get $to))
              (then
                (if (i32.eq (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1))))) (i32.const 3)) (then (local.set $measured (i32.const 0))))))
            ;; The rest of a date, a version or an id is stepped over whole.
            (block $restEnd
              (loop $rest
                (br_if $restEnd (i32.ge_s (local.get $i) (local.get $to)))
                (br_if $restEnd (i32.eqz (i32.load8_u offset=65536 (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 1)))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $rest)))
            (local.set $ordinal (i32.add (local.get $ordinal) (i32.const 1)))
            (br_if $next (i32.eqz (local.get $measured)))
            (br_if $next (i32.lt_s (local.get $wordFrom) (i32.const 0)))
            (br_if $next (i32.lt_s (local.get $scopeFrom) (i32.const 0)))
            (if (i32.eqz (local.get $wordHash))
              (then
                (if (i32.eqz (local.get $scopeHash))
                  (then
                    (local.set $scopeHash
                      (i32.or
                        (call $hashUnits (local.get $units) (local.get $scopeFrom) (local.get $scopeTo)
                          (i32.const 0x811c9dc5))
                        (i32.const 1)))))
                (local.set $wordHash
                  (if (result i32) (call $holdsDigit (local.get $units) (local.get $wordFrom) (local.get $wordTo))
                    (then (i32.const -1))
                    (else
                      (i32.or
                        (call $hashUnits (local.get $units) (local.get $wordFrom) (local.get $wordTo)
                          (local.get $scopeHash))
                        (i32.const 1)))))))
            (br_if $next (i32.eq (local.get $wordHash) (i32.const -1)))
            (local.set $read (i32.add (local.get $read) (i32.const 1)))
            (local.set $key
              (i32.mul
                (i32.xor
                  (i32.mul (i32.xor (local.get $wordHash) (local.get $ordinal)) (i32.const 0x01000193))
                  (local.get $unit))
                (i32.const 0x01000193)))
            (local.set $key
              (i32.or
                (i32.mul (i32.xor (local.get $key) (i32.shr_u (local.get $key) (i32.const 16)))
                  (i32.const 0x01000193))
                (i32.const 1)))
            (i32.store (i32.add (local.get $outKey) (i32.shl (local.get $count) (i32.const 2))) (local.get $key))
            (f64.store (i32.add (local.get $outValue) (i32.shl (local.get $count) (i32.const 3))) (local.get $value))
            (i32.store (i32.add (local.get $outRow) (i32.shl (local.get $count) (i32.const 2))) (local.get $r))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (br $next)))
        (local.set $work
          (i32.add (local.get $work) (i32.add (i32.sub (local.get $to) (local.get $from)) (i32.const 8))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))
    (global.set $measureWork (local.get $work))
    (local.get $count))
)
