#!/usr/bin/perl
# SPDX-License-Identifier: LGPL-2.1-or-later
# export-filter.pl REGEX < EXPORT > EXPORT
# Drops from a journal export stream (journalctl -o export) every entry that is from or about a helper: an entry
# any of whose field values (MESSAGE, UNIT, _SYSTEMD_UNIT, SYSLOG_IDENTIFIER, …) matches REGEX. Everything else
# is copied byte for byte. tests/lab-vm-set.sh uses it to take its truth-reporting units out of the exports, as
# the lab did for ../shared/data. Format: see export-rewrite.pl.
use strict;
use warnings;
binmode STDIN;
binmode STDOUT;
my $re = shift // die "usage: $0 REGEX < EXPORT > EXPORT\n";
$re = qr/$re/;
my ($kept, $dropped) = (0, 0);
my (@fields, $drop);
sub entry_done {
        if (@fields) {
                if ($drop) { $dropped++ } else { print @fields, "\n"; $kept++ }
        }
        @fields = ();
        $drop = 0;
}
while (defined(my $line = <STDIN>)) {
        if ($line eq "\n") {
                entry_done();
                next;
        }
        if ($line !~ /=/) {
                chomp(my $key = $line);
                read(STDIN, my $len, 8) == 8 or die "cut short in the length of $key\n";
                my $n = unpack('Q<', $len);
                read(STDIN, my $data, $n) == $n or die "cut short in the data of $key\n";
                my $nl = '';
                (read(STDIN, $nl, 1) == 1 && $nl eq "\n") or die "no newline after the data of $key\n";
                $drop = 1 if $data =~ $re;
                $line = "$key\n$len$data\n";
        } elsif ($line =~ /^[^_][^=]*=(.*)$/s || $line =~ /^_(?:SYSTEMD_UNIT|SYSTEMD_CGROUP|COMM|EXE|CMDLINE)=(.*)$/s) {
                $drop = 1 if $1 =~ $re;
        }
        push @fields, $line;
}
entry_done();
print STDERR "export-filter: kept $kept entries, dropped $dropped\n";
