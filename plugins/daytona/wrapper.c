/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Perl program each command runs in (exec.c hands it to the session's
 * shell as `perl -e`, with its arguments). perl-base is in every
 * Debian-based image, Daytona's own included. It
 *   - enters the working directory (made with its parents when missing, as
 *     `docker run -w` does) and looks the program up in the
 *     command's own PATH, and says why it gave up ("start nocwd",
 *     "start noexec", "start noperm"), so a missing program is told from
 *     a program that exits 127;
 *   - runs argv as given (no shell) in a process group of its own, with
 *     exactly the command's environment, every signal at its default and
 *     none blocked. Only core Perl is loaded: POSIX (setsid, sigprocmask)
 *     more than doubles the wrapper's start, so the group is setpgrp's
 *     (the daemon's shells have no terminal: a session would add only its
 *     id), and POSIX is loaded for a blocked mask alone;
 *   - learns of the command's end from SIGCHLD (a self-pipe in its
 *     select), not at its next timeout;
 *   - writes the command's stdout and stderr, byte for byte, into chunk
 *     files o.N and e.N of a directory of its own in /tmp (a chunk is
 *     closed at 1 MiB, when the output pauses, or within a second), and
 *     at the end its status, as the name of an empty file ("status.exit.N"
 *     or "status.signal.N", so the listing says it), and exits with
 *     the command's status, which the daemon records as the command's
 *     exit code;
 *   - reads control lines from its stdin, which is the session command's
 *     input endpoint: "d<hex>" bytes for the command's stdin, "e" its end,
 *     "k" kill the command's process group.
 */
#include "daytona.h"

/* $1 dir, $2 1 if stdin comes, $3 cwd, $4 PATH, $5 count of K=V words, then them, then argv. */
const char daytona_wrapper[] =
    "use strict; use Fcntl;\n"
    "my ($d, $si, $cwd, $path, $n) = splice @ARGV, 0, 5;\n"
    "my @env = splice @ARGV, 0, $n;\n"
    "mkdir $d, 0700; -d $d or die \"mkdir $d: $!\\n\";\n"
    "sub put { my ($name, $data) = @_;\n"
    "  open(my $f, '>', \"$d/.$name\") or die \"$d/.$name: $!\\n\";\n"
    "  print $f $data; close $f or die \"$d/.$name: $!\\n\";\n"
    "  rename(\"$d/.$name\", \"$d/$name\") or die \"$d/$name: $!\\n\"; }\n"
    "sub quit { (my $s = $_[0]) =~ tr/ /./; put(\"status.$s\", ''); exit $_[1]; }\n"
    "if ($cwd ne '' && !-d $cwd) { my $m = ''; for (split m{/}, $cwd) { $m .= \"$_/\"; mkdir $m } }\n"
    "quit('start nocwd', 126) if $cwd ne '' && !chdir $cwd;\n"
    "my $p = $ARGV[0]; my $f = '';\n"
    "if ($p =~ m{/}) { $f = $p }\n"
    "else { for my $x (split /:/, $path, -1) { $x = '.' if $x eq '';\n"
    "  if (-f \"$x/$p\" && -x _) { $f = \"$x/$p\"; last } } }\n"
    "quit('start noexec', 127) unless $f ne '' && -f $f;\n"
    "quit('start noperm', 126) unless -x $f;\n"
    "pipe(my $ir, my $iw) or die \"pipe: $!\\n\"; pipe(my $or, my $ow) or die \"pipe: $!\\n\";\n"
    "pipe(my $er, my $ew) or die \"pipe: $!\\n\";\n"
    "pipe(my $cr, my $cw) or die \"pipe: $!\\n\";\n"
    "for ($cr, $cw) { fcntl($_, F_SETFL, fcntl($_, F_GETFL, 0) | O_NONBLOCK) }\n"
    "$SIG{CHLD} = sub { syswrite($cw, 'c') };\n"
    "my $pid = fork; defined $pid or die \"fork: $!\\n\";\n"
    "if (!$pid) {\n"
    "  setpgrp(0, 0);\n"
    "  open(STDIN, '<&', $ir); open(STDOUT, '>&', $ow); open(STDERR, '>&', $ew);\n"
    "  for (keys %SIG) { next if /^(KILL|STOP|ZERO|__\\w+__)$/; $SIG{$_} = 'DEFAULT' }\n"
    "  my $blk = ''; if (open(my $ps, '<', '/proc/self/status')) { ($blk) = grep { /^SigBlk:/ } <$ps> }\n"
    "  if ($blk !~ /^SigBlk:\\s*0+$/) { require POSIX;\n"
    "    POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new()) }\n"
    "  %ENV = (); for (@env) { my ($k, $v) = split /=/, $_, 2; $ENV{$k} = $v }\n"
    "  exec { $f } @ARGV; require POSIX; POSIX::_exit(127);\n"
    "}\n"
    "close $ir; close $ow; close $ew; $SIG{PIPE} = 'IGNORE';\n"
    "put('pid', $pid);\n"
    "for ($or, $er, $iw) { fcntl($_, F_SETFL, fcntl($_, F_GETFL, 0) | O_NONBLOCK) }\n"
    "if (!$si) { close $iw; undef $iw }\n"
    "my %h = (o => $or, e => $er); my %b = (o => '', e => ''); my %t; my %q = (o => 0, e => 0);\n"
    "my ($in, $ctl, $eof, $cin, $reaped, $st) = ('', '', 0, 1, 0, 0);\n"
    "sub out { my ($s, $all) = @_;\n"
    "  return if $b{$s} eq '' || !($all || length($b{$s}) >= 1048576 || $t{$s} < time);\n"
    "  put(sprintf('%s.%09d', $s, $q{$s}++), $b{$s}); $b{$s} = ''; }\n"
    "sub take { my ($s) = @_; my $r = sysread($h{$s}, my $c, 65536);\n"
    "  return 1 if !defined $r && ($!{EAGAIN} || $!{EINTR});\n"
    "  if (!$r) { close $h{$s}; delete $h{$s}; return 0 }\n"
    "  $t{$s} = time if $b{$s} eq ''; $b{$s} .= $c; return 1; }\n"
    "while (1) {\n"
    "  my ($ri, $wi) = ('', '');\n"
    "  vec($ri, fileno($h{$_}), 1) = 1 for grep { $h{$_} } qw(o e);\n"
    "  vec($ri, 0, 1) = 1 if $cin && length($in) < 4194304;\n"
    "  vec($ri, fileno($cr), 1) = 1;\n"
    "  vec($wi, fileno($iw), 1) = 1 if $iw && length($in);\n"
    "  my $nf = select(my $ro = $ri, my $wo = $wi, undef, 0.05);\n"
    "  if ($nf < 0) { next if $!{EINTR}; die \"select: $!\\n\" }\n"
    "  for my $s (qw(o e)) { take($s) if $h{$s} && vec($ro, fileno($h{$s}), 1) }\n"
    "  sysread($cr, my $reaped_note, 64) if vec($ro, fileno($cr), 1);\n"
    "  if ($cin && vec($ro, 0, 1)) {\n"
    "    my $r = sysread(STDIN, my $c, 65536);\n"
    "    if ($r) { $ctl .= $c } elsif (defined $r || !($!{EAGAIN} || $!{EINTR})) { $cin = 0 }\n"
    "    while ($ctl =~ s/^([^\\n]*)\\n//) { my $l = $1;\n"
    "      if ($l =~ /^d([0-9a-f]*)$/) { $in .= pack('H*', $1) if $iw }\n"
    "      elsif ($l eq 'e') { $eof = 1 }\n"
    "      elsif ($l eq 'k') { kill 'KILL', -$pid; kill 'KILL', $pid } }\n"
    "  }\n"
    "  if ($iw && length($in) && vec($wo, fileno($iw), 1)) {\n"
    "    my $w = syswrite($iw, $in);\n"
    "    if (defined $w) { substr($in, 0, $w) = '' }\n"
    "    elsif (!$!{EAGAIN} && !$!{EINTR}) { close $iw; undef $iw; $in = '' } }\n"
    "  if ($iw && $eof && $in eq '') { close $iw; undef $iw }\n"
    "  if (!$reaped && waitpid($pid, 1) == $pid) { $reaped = 1; $st = $? }\n"
    "  if ($reaped) { for my $s (grep { $h{$_} } qw(o e)) {\n"
    "    while (1) { my $r = sysread($h{$s}, my $c, 65536); last unless $r; $b{$s} .= $c }\n"
    "    close $h{$s}; delete $h{$s} } }\n"
    "  for my $s (qw(o e)) { out($s, $nf == 0 || !$h{$s} || $reaped) }\n"
    "  last if $reaped;\n"
    "}\n"
    "my $sig = $st & 127;\n"
    "quit($sig ? \"signal $sig\" : 'exit ' . ($st >> 8), $sig ? 128 + $sig : $st >> 8);\n";
