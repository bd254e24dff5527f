using System;
using System.Collections.Generic;

namespace Shop.Billing
{
    /// <summary>Computes invoice totals.</summary>
    public interface ICalculator
    {
        decimal Total(IEnumerable<decimal> lines);
    }

    public enum Currency { Eur, Usd }

    public struct Money
    {
        public decimal Amount;
        public Currency Currency;
    }

    /// <summary>Default calculator. Adds tax.</summary>
    public class Calculator : ICalculator
    {
        public const decimal TaxRate = 0.2m;

        public decimal Total(IEnumerable<decimal> lines)
        {
            decimal sum = 0;
            foreach (var l in lines) sum += l;
            return WithTax(sum);
        }

        private static decimal WithTax(decimal amount)
        {
            return Math.Round(amount * (1 + TaxRate), 2);
        }

        /// <summary>The currency totals are in.</summary>
        public Currency Unit { get; set; } = Currency.Eur;
    }
}
